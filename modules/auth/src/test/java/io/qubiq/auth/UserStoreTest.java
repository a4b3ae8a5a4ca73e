package io.qubiq.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserStoreTest {

    @TempDir
    Path dir;

    final MutableClock clock = new MutableClock();

    UserStore open() throws IOException {
        return UserStore.open(dir, AuthFixture.hasher(12), Roles.builtIn(), clock);
    }

    @Test
    void usersSurviveReopenWithRolesAndDisabledFlag() throws Exception {
        UserStore store = open();
        store.create("Alice", "crane-harbour-1", List.of("admin"));
        store.create("bob", "violet-tractor-12", List.of("viewer", "operator"));
        store.setDisabled("bob", true);

        UserStore reopened = open();

        assertThat(reopened.list()).extracting(UserAccount::name).containsExactly("alice", "bob");
        assertThat(reopened.find("bob").orElseThrow().roles()).containsExactly("viewer", "operator");
        assertThat(reopened.find("bob").orElseThrow().disabled()).isTrue();
        assertThat(reopened.check("alice", "crane-harbour-1").outcome()).isEqualTo(UserStore.Outcome.OK);
    }

    @Test
    void crashBetweenTempWriteAndRenameLeavesTheOldFileValid() throws Exception {
        open().create("alice", "crane-harbour-1", List.of("admin"));
        UserStore crashing = UserStore.open(dir, AuthFixture.hasher(12), Roles.builtIn(), clock, temp -> {
            throw new IOException("simulated crash after the temp file was synced");
        });

        assertThatThrownBy(() -> crashing.create("bob", "violet-tractor-12", List.of("viewer")))
                .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("nothing was changed");
        assertThat(crashing.find("bob")).as("memory is updated only after the durable write").isEmpty();
        assertThat(dir.resolve("users.properties.tmp")).exists();

        UserStore reopened = open();
        assertThat(reopened.list()).extracting(UserAccount::name).containsExactly("alice");
        assertThat(dir.resolve("users.properties.tmp")).as("leftover temp file removed").doesNotExist();
    }

    @Test
    void halfWrittenTempFileFromACrashIsIgnored() throws Exception {
        open().create("alice", "crane-harbour-1", List.of("admin"));
        Files.writeString(dir.resolve("users.properties.tmp"), "# Qubiq users.\nformat=qubiq-users/1\nusers=2\nuser.0.na");

        assertThat(open().list()).extracting(UserAccount::name).containsExactly("alice");
    }

    @Test
    void damagedFileIsRefusedByOpenNamingTheFileAndIsLeftAsItWas() throws Exception {
        open().create("alice", "crane-harbour-1", List.of("admin"));
        Path file = dir.resolve("users.properties");
        String text = Files.readString(file).replace("roles=admin", "roles=viewer");
        Files.writeString(file, text);

        assertThatThrownBy(this::open).isInstanceOf(CorruptStoreException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("checksum mismatch")
                .hasMessageContaining("Restore it from a backup");
        assertThat(Files.readString(file)).isEqualTo(text);
    }

    @Test
    void truncatedFileRefusesToStart() throws Exception {
        open().create("alice", "crane-harbour-1", List.of("admin"));
        Path file = dir.resolve("users.properties");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        assertThatThrownBy(this::open).isInstanceOf(CorruptStoreException.class)
                .satisfies(e -> assertThat(((CorruptStoreException) e).file()).isEqualTo(file));
    }

    @Test
    void wrongPasswordAndUnknownUserAreRejected() throws Exception {
        UserStore store = open();
        store.create("alice", "crane-harbour-1", List.of("admin"));

        assertThat(store.check("alice", "crane-harbour-2").outcome()).isEqualTo(UserStore.Outcome.WRONG_PASSWORD);
        assertThat(store.check("alice", "").outcome()).isEqualTo(UserStore.Outcome.WRONG_PASSWORD);
        assertThat(store.check("mallory", "crane-harbour-1").outcome()).isEqualTo(UserStore.Outcome.UNKNOWN_USER);
        assertThat(store.check("ALICE ", "crane-harbour-1").outcome()).isEqualTo(UserStore.Outcome.OK);
    }

    @Test
    void disabledUserCannotSignInEvenWithTheRightPassword() throws Exception {
        UserStore store = open();
        store.create("alice", "crane-harbour-1", List.of("admin"));
        store.create("bob", "violet-tractor-12", List.of("viewer"));
        store.setDisabled("bob", true);

        assertThat(store.check("bob", "violet-tractor-12").outcome()).isEqualTo(UserStore.Outcome.DISABLED);
        assertThat(store.check("bob", "violet-tractor-12").user()).isEmpty();
    }

    @Test
    void passwordsAreStoredAsArgon2idHashesOnly() throws Exception {
        open().create("alice", "crane-harbour-1", List.of("admin"));

        String file = Files.readString(dir.resolve("users.properties"), StandardCharsets.UTF_8);

        assertThat(file).doesNotContain("crane-harbour-1").contains("user.0.hash=$argon2id$v=19$m=256,t=1,p=1$");
    }

    @Test
    void shortPasswordIsRefusedWithTheRequiredLength() throws Exception {
        assertThatThrownBy(() -> open().create("alice", "short", List.of("admin")))
                .isInstanceOf(PasswordRejectedException.class).hasMessage(
                        "a password needs at least 12 characters; this one has 5");
        assertThat(open().isEmpty()).isTrue();
    }

    @Test
    void changedPasswordReplacesTheOldOne() throws Exception {
        UserStore store = open();
        store.create("alice", "crane-harbour-1", List.of("admin"));

        store.changePassword("alice", "crane-harbour-2");

        assertThat(open().check("alice", "crane-harbour-1").outcome()).isEqualTo(UserStore.Outcome.WRONG_PASSWORD);
        assertThat(open().check("alice", "crane-harbour-2").outcome()).isEqualTo(UserStore.Outcome.OK);
    }

    @Test
    void lastAdminCanBeNeitherDeletedNorDisabledNorDemoted() throws Exception {
        UserStore store = open();
        store.create("alice", "crane-harbour-1", List.of("admin"));
        store.create("bob", "violet-tractor-12", List.of("viewer"));

        assertThatThrownBy(() -> store.delete("alice")).isInstanceOf(LastAdminException.class);
        assertThatThrownBy(() -> store.setDisabled("alice", true)).isInstanceOf(LastAdminException.class);
        assertThatThrownBy(() -> store.setRoles("alice", List.of("engineer"))).isInstanceOf(LastAdminException.class);
        assertThat(open().find("alice").orElseThrow().disabled()).isFalse();

        store.setRoles("bob", List.of("admin"));
        store.delete("alice");
        assertThat(open().list()).extracting(UserAccount::name).containsExactly("bob");
    }

    @Test
    void disabledAdminDoesNotCountAsTheRemainingAdmin() throws Exception {
        UserStore store = open();
        store.create("alice", "crane-harbour-1", List.of("admin"));
        store.create("carol", "maple-orchard-1", List.of("admin"));
        store.setDisabled("carol", true);

        assertThatThrownBy(() -> store.delete("alice")).isInstanceOf(LastAdminException.class);
    }

    @Test
    void namesAreUniqueIgnoringCaseAndRolesMustExist() throws Exception {
        UserStore store = open();
        store.create("alice", "crane-harbour-1", List.of("admin"));

        assertThatThrownBy(() -> store.create("Alice", "other-password-1", List.of("viewer")))
                .isInstanceOf(UserExistsException.class);
        assertThatThrownBy(() -> store.create("bob", "violet-tractor-12", List.of("superuser")))
                .isInstanceOf(InvalidNameException.class).hasMessageContaining("no role named superuser");
        assertThatThrownBy(() -> store.create("bad name", "violet-tractor-12", List.of("viewer")))
                .isInstanceOf(InvalidNameException.class);
        assertThatThrownBy(() -> store.delete("nobody")).isInstanceOf(UserNotFoundException.class);
    }

    @Test
    void hashMadeWithOlderParametersIsUpgradedAtTheNextSuccessfulSignIn() throws Exception {
        UserStore.open(dir, new PasswordHasher(new Argon2Parameters(128, 1, 1), 12, 1), Roles.builtIn(), clock)
                .create("alice", "crane-harbour-1", List.of("admin"));
        assertThat(Files.readString(dir.resolve("users.properties"))).contains("m=128,t=1,p=1");

        UserStore upgraded = open();
        assertThat(upgraded.check("alice", "wrong-password-1").outcome()).isEqualTo(UserStore.Outcome.WRONG_PASSWORD);
        assertThat(Files.readString(dir.resolve("users.properties"))).as("not on a failed check").contains("m=128,");
        assertThat(upgraded.check("alice", "crane-harbour-1").outcome()).isEqualTo(UserStore.Outcome.OK);

        assertThat(Files.readString(dir.resolve("users.properties"))).contains("m=256,t=1,p=1").doesNotContain("m=128,");
        assertThat(open().check("alice", "crane-harbour-1").outcome()).isEqualTo(UserStore.Outcome.OK);
    }
}
