package io.qubiq.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The way out of a damaged user or API-token store, and of a lost administrator password: what the
 * {@code reset-admin} command does, with the gateway stopped (the caller holds the data directory's lock).
 *
 * <ul>
 *   <li>Users file damaged: the damaged bytes are set aside in {@code corrupt/} ({@link StoreDamage}; never
 *       overwritten before a copy exists) and the file is replaced, atomically, by a fresh store holding one
 *       administrator. Intact or absent: the other users are kept and the administrator is created, or given
 *       the new password, the {@code admin} role and enabled again.</li>
 *   <li>Token file damaged: set aside the same way and replaced by one holding no token; every API token must
 *       be issued again. Intact: left as it is.</li>
 * </ul>
 * A crash part way leaves each file either as it was or as reset, never missing, so a damaged store never
 * turns into "no users yet" (which would open the first-administrator setup to whoever comes first).
 *
 * <p>Stateless; run once by the command's thread.
 */
public final class AdminReset {

    /** What {@link #run} did, in sentences for the operator. */
    public record Report(List<String> done) {
    }

    private AdminReset() {
    }

    /**
     * Resets the stores in {@code directory} (normally {@code <data dir>/auth}).
     *
     * @throws IOException when a file cannot be read, set aside or written; nothing was replaced that could not
     *     be set aside first
     */
    public static Report run(AuthConfig config, Path directory, String adminName, String password, Clock clock)
            throws IOException {
        Roles roles = Roles.withCustom(config.roles());
        PasswordHasher hasher = new PasswordHasher(config.hashParameters(), config.passwordMinLength(),
                Runtime.getRuntime().availableProcessors());
        String name = UserAccount.canonicalName(adminName);
        hasher.checkPolicy(name, password);
        List<String> done = new ArrayList<>();
        Files.createDirectories(directory);
        UserStore users;
        try {
            users = UserStore.open(directory, hasher, roles, clock);
        } catch (CorruptStoreException damaged) {
            StoreDamage aside = requireCopy(StoreDamage.setAside(damaged, clock.instant()));
            done.add("The users file " + aside.file() + " was damaged (" + aside.problem() + "); its bytes are kept in "
                    + aside.copy() + ". It now holds only the administrator " + name + ".");
            users = UserStore.replacing(directory, hasher, roles, clock);
        }
        if (users.find(name).isEmpty()) {
            users.create(name, password, List.of(Role.ADMIN.name()));
            done.add("Created the administrator " + name + ".");
        } else {
            users.changePassword(name, password);
            List<String> held = users.find(name).orElseThrow().roles();
            if (!held.contains(Role.ADMIN.name())) {
                List<String> withAdmin = new ArrayList<>(held);
                withAdmin.add(Role.ADMIN.name());
                users.setRoles(name, withAdmin);
            }
            users.setDisabled(name, false);
            done.add("Set a new password for " + name + ", who holds the admin role and is enabled; the other users"
                    + " are kept.");
        }
        try {
            ApiTokens.open(directory, users, clock);
        } catch (CorruptStoreException damaged) {
            StoreDamage aside = requireCopy(StoreDamage.setAside(damaged, clock.instant()));
            ApiTokens.writeEmpty(directory);
            done.add("The API-token file " + aside.file() + " was damaged (" + aside.problem() + "); its bytes are kept"
                    + " in " + aside.copy() + ". It now holds no token: every API token must be issued again.");
        }
        return new Report(List.copyOf(done));
    }

    private static StoreDamage requireCopy(StoreDamage aside) throws IOException {
        if (aside.copy().isEmpty()) {
            throw new IOException("could not keep a copy of the damaged " + aside.file() + " (" + aside.problem()
                    + "); it was left as it is");
        }
        return aside;
    }
}
