package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.powerloss.CrashReplays;
import io.qubiq.fileops.powerloss.FileOp;
import io.qubiq.fileops.powerloss.RecordingFileOps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss at every point of the crash model ({@link io.qubiq.fileops.powerloss.CrashStates})
 * for the user and API token stores: the first administrator is created, then more users, some
 * disabled, and tokens created and revoked, through a {@link RecordingFileOps}; every state a
 * power cut could leave is replayed into a fresh directory and both stores reopened there.
 * Asserted for each state:
 *
 * <ul>
 *   <li>both open without throwing (never a damaged file, so sign-in is never refused for it);
 *   <li>once the first administrator's creation returned, the user store is never empty again:
 *       a power cut never re-opens the first-administrator bootstrap;
 *   <li>every change that returned (a user created, a user disabled, a token created or revoked)
 *       is there (a token unless its revocation had begun), and nothing is there that was never
 *       begun.
 * </ul>
 *
 * <p>What it would catch: a rename before the temp file's fsync (an empty or torn store file),
 * a change that returns before the directory fsync (undone by the power cut).
 */
class AuthStorePowerLossTest {

    private static final int USERS = 8;

    record Begun(String change) {
    }

    record Done(String change) {
    }

    @TempDir
    Path temp;

    @Test
    void everyCrashStateReopensWithEveryReturnedChangeAndNeverAnEmptyUserStoreAfterTheFirstAdmin()
            throws Exception {
        Path recorded = Files.createDirectories(temp.resolve("recorded"));
        RecordingFileOps files = new RecordingFileOps(recorded);
        MutableClock clock = new MutableClock();
        Path dir = recorded.resolve("auth");
        UserStore users = UserStore.open(dir, AuthFixture.hasher(12), Roles.builtIn(), clock, files);
        ApiTokens tokens = ApiTokens.open(dir, users, clock, files);
        change(files, "user admin", () -> users.create("admin", "owner-password-1", List.of("admin")));
        for (int i = 1; i <= USERS; i++) {
            int n = i;
            change(files, "user u" + n, () -> users.create("u" + n, "user-password-" + n, List.of("viewer")));
            if (n % 3 == 0) {
                change(files, "disabled u" + n, () -> users.setDisabled("u" + n, true));
            }
            if (n % 2 == 0) {
                String[] id = new String[1];
                change(files, "token t" + n, () -> id[0] = tokens.create("admin", "t" + n, Optional.empty())
                        .token().id());
                files.note(new TokenId("t" + n, id[0]));
                if (n % 4 == 0) {
                    change(files, "revoked t" + n, () -> tokens.revoke(id[0]));
                }
            }
        }
        List<FileOp> log = files.log();
        CrashReplays.Result result = CrashReplays.run("user and token stores", log, temp,
                (state, replayed) -> check(state.notesBefore(log), replayed.resolve("auth")));
        assertThat(result.failures()).as("crash states that broke a promise").isEmpty();
    }

    record TokenId(String name, String id) {
    }

    private static void change(RecordingFileOps files, String change, Runnable action) {
        files.note(new Begun(change));
        action.run();
        files.note(new Done(change));
    }

    private static String check(List<Object> notes, Path dir) throws Exception {
        Set<String> begun = new HashSet<>();
        Set<String> done = new HashSet<>();
        for (Object note : notes) {
            if (note instanceof Begun b) {
                begun.add(b.change());
            } else if (note instanceof Done d) {
                done.add(d.change());
            }
        }
        MutableClock clock = new MutableClock();
        UserStore users = UserStore.open(dir, AuthFixture.hasher(12), Roles.builtIn(), clock, FileOps.system());
        ApiTokens tokens = ApiTokens.open(dir, users, clock, FileOps.system());
        if (done.contains("user admin") && users.isEmpty()) {
            return "the user store is empty after the first administrator was created: bootstrap re-opened";
        }
        for (int i = 0; i <= USERS; i++) {
            String name = i == 0 ? "admin" : "u" + i;
            boolean there = users.find(name).isPresent();
            if (done.contains("user " + name) && !there) {
                return "user " + name + " was created (returned) and is gone";
            }
            if (there && !begun.contains("user " + name)) {
                return "user " + name + " is there but was never created";
            }
            boolean disabled = there && users.find(name).get().disabled();
            if (done.contains("disabled " + name) && !disabled) {
                return "user " + name + " was disabled (returned) and is enabled again";
            }
            if (disabled && !begun.contains("disabled " + name)) {
                return "user " + name + " is disabled but never was";
            }
        }
        Set<String> tokenNames = new HashSet<>();
        for (ApiToken token : tokens.list()) {
            tokenNames.add(token.name());
        }
        for (int i = 2; i <= USERS; i += 2) {
            String name = "t" + i;
            if (done.contains("token " + name) && !begun.contains("revoked " + name) && !tokenNames.contains(name)) {
                return "token " + name + " was created (returned) and is gone";
            }
            if (tokenNames.contains(name) && !begun.contains("token " + name)) {
                return "token " + name + " is there but was never created";
            }
            if (done.contains("revoked " + name) && tokenNames.contains(name)) {
                return "token " + name + " was revoked (returned) and is valid again";
            }
        }
        return null;
    }
}
