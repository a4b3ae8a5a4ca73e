package io.qubiq.auth;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local users: names, Argon2id password hashes, roles, disabled flags, durable in one file.
 *
 * <p><b>File.</b> {@code <directory>/users.properties} in {@link StoreFile} form (format
 * {@code qubiq-users/1}): {@code users=N}, then for each {@code i < N} the keys {@code user.i.name},
 * {@code .hash} (PHC string), {@code .roles} (comma-separated), {@code .disabled}, {@code .created},
 * {@code .password_changed} (ISO-8601 instants). Every change rewrites the whole file through a temp
 * file, fsync and atomic rename, and only then updates memory; a change is committed when its method
 * returns. A crash mid-write leaves the previous file (and a stray temp file, deleted at the next open).
 * A file that fails its checksum or does not parse makes {@link #open} throw
 * {@link CorruptStoreException} naming it; it is never replaced. {@link Auth#open} then runs with a
 * {@link #damaged} store, which knows no user and refuses every change. If a write fails, the method throws
 * {@link UncheckedIOException} and nothing changed, on disk or in memory.
 *
 * <p><b>Rules.</b> Passwords obey {@link PasswordPolicy}; role names must be known to
 * {@link Roles}; the last enabled user holding {@link Permission#MANAGE_USERS} can be neither deleted,
 * disabled nor stripped of that permission ({@link LastAdminException}). This class does not audit and
 * does not end sessions: {@link UserAdministration} does both around it.
 *
 * <p><b>Threading.</b> Safe for concurrent use. Reads see an immutable snapshot through a volatile field
 * and never block; changes are serialized by the instance lock (hashing a new password happens before
 * taking it). One process owns the directory.
 */
public final class UserStore {

    private static final Logger LOG = LoggerFactory.getLogger(UserStore.class);
    static final String FILE_NAME = "users.properties";

    /** The outcome of a password check, for the sign-in flow and its audit record. */
    public enum Outcome { OK, UNKNOWN_USER, WRONG_PASSWORD, DISABLED }

    /** @param user present only when the outcome is {@link Outcome#OK} */
    public record Check(Outcome outcome, Optional<UserAccount> user) {
    }

    private record Stored(UserAccount account, String hash) {
    }

    private final StoreFile file;
    private final PasswordHasher hasher;
    private final Roles roles;
    private final Clock clock;
    private final Optional<StoreDamage> damage;
    private volatile Map<String, Stored> users;

    private UserStore(StoreFile file, PasswordHasher hasher, Roles roles, Clock clock, Map<String, Stored> users,
                      Optional<StoreDamage> damage) {
        this.file = file;
        this.hasher = hasher;
        this.roles = roles;
        this.clock = clock;
        this.users = users;
        this.damage = damage;
    }

    /**
     * A store standing in for a damaged file: it knows no user (every check answers
     * {@link Outcome#UNKNOWN_USER}) and refuses every change, so the damaged file is never overwritten
     * while the gateway runs. Only {@link AdminReset} replaces it, with the gateway stopped.
     */
    static UserStore damaged(Path directory, PasswordHasher hasher, Roles roles, Clock clock, StoreDamage damage) {
        StoreFile file = new StoreFile(directory.resolve(FILE_NAME), "qubiq-users/1", "Qubiq users.", FileOps.system(),
                AtomicFile.BeforeRename.NOTHING);
        return new UserStore(file, hasher, roles, clock, Map.of(), Optional.of(damage));
    }

    /**
     * A store with no user that does not read the file in {@code directory}: its first change replaces the
     * file whole (atomically), whatever it held. Only for {@link AdminReset}.
     */
    static UserStore replacing(Path directory, PasswordHasher hasher, Roles roles, Clock clock) {
        StoreFile file = new StoreFile(directory.resolve(FILE_NAME), "qubiq-users/1", "Qubiq users.", FileOps.system(),
                AtomicFile.BeforeRename.NOTHING);
        return new UserStore(file, hasher, roles, clock, Map.of(), Optional.empty());
    }

    /** Present when the file was found damaged on open: then nobody can sign in and nothing can be changed. */
    public Optional<StoreDamage> damage() {
        return damage;
    }

    /**
     * Opens (or starts empty) the store in {@code directory}, creating the directory if needed.
     *
     * @throws CorruptStoreException if the file exists but is damaged; the file is left as it is
     */
    public static UserStore open(Path directory, PasswordHasher hasher, Roles roles, Clock clock) throws IOException {
        return open(directory, hasher, roles, clock, FileOps.system(), AtomicFile.BeforeRename.NOTHING);
    }

    /** With custom file operations: the power-loss tests record them. */
    public static UserStore open(Path directory, PasswordHasher hasher, Roles roles, Clock clock, FileOps files)
            throws IOException {
        return open(directory, hasher, roles, clock, files, AtomicFile.BeforeRename.NOTHING);
    }

    static UserStore open(Path directory, PasswordHasher hasher, Roles roles, Clock clock,
                          AtomicFile.BeforeRename beforeRename) throws IOException {
        return open(directory, hasher, roles, clock, FileOps.system(), beforeRename);
    }

    private static UserStore open(Path directory, PasswordHasher hasher, Roles roles, Clock clock, FileOps files,
                                  AtomicFile.BeforeRename beforeRename) throws IOException {
        files.createDirectories(directory);
        StoreFile file = new StoreFile(directory.resolve(FILE_NAME), "qubiq-users/1", "Qubiq users.", files,
                beforeRename);
        Map<String, Stored> users = new LinkedHashMap<>();
        Optional<StoreFile.Entries> entries = file.read();
        if (entries.isPresent()) {
            StoreFile.Entries e = entries.get();
            int count = e.count("users");
            for (int i = 0; i < count; i++) {
                String key = "user." + i + ".";
                try {
                    String name = UserAccount.canonicalName(e.required(key + "name"));
                    String rolesText = e.required(key + "roles");
                    List<String> roleNames = rolesText.isEmpty() ? List.of() : List.of(rolesText.split(","));
                    UserAccount account = new UserAccount(name, roleNames,
                            Boolean.parseBoolean(e.required(key + "disabled")),
                            Instant.parse(e.required(key + "created")), Instant.parse(e.required(key + "password_changed")));
                    if (users.put(name, new Stored(account, e.required(key + "hash"))) != null) {
                        throw new CorruptStoreException(file.path(), 0, "user " + name + " appears twice");
                    }
                    roles.firstUnknown(roleNames).ifPresent(role -> LOG.warn("User {} has role {}, which is no longer"
                            + " configured; it grants nothing until it is defined again or removed", name, role));
                } catch (InvalidNameException | DateTimeParseException bad) {
                    throw new CorruptStoreException(file.path(), 0, key + "*: " + bad.getMessage());
                }
            }
        }
        return new UserStore(file, hasher, roles, clock, Collections.unmodifiableMap(users), Optional.empty());
    }

    public Path file() {
        return file.path();
    }

    public boolean isEmpty() {
        return users.isEmpty();
    }

    public List<UserAccount> list() {
        return users.values().stream().map(Stored::account).toList();
    }

    public Optional<UserAccount> find(String name) {
        Stored stored = users.get(name);
        return stored == null ? Optional.empty() : Optional.of(stored.account());
    }

    /** Whether {@code typedName} names a user (cheap: no hashing), for choosing the sign-in throttle's counter. */
    public boolean exists(String typedName) {
        try {
            return users.containsKey(UserAccount.canonicalName(typedName));
        } catch (InvalidNameException e) {
            return false;
        }
    }

    /**
     * Checks a sign-in. Costs one Argon2id verification whatever the outcome, so the answer time does
     * not reveal whether the user exists. A match against outdated hash parameters stores a fresh hash.
     */
    public Check check(String typedName, String password) {
        Stored stored;
        try {
            stored = users.get(UserAccount.canonicalName(typedName));
        } catch (InvalidNameException e) {
            stored = null;
        }
        if (stored == null) {
            hasher.verifyDecoy(password);
            return new Check(Outcome.UNKNOWN_USER, Optional.empty());
        }
        PasswordHasher.Check check = hasher.verify(password, stored.hash());
        if (check == PasswordHasher.Check.MISMATCH) {
            return new Check(Outcome.WRONG_PASSWORD, Optional.empty());
        }
        if (stored.account().disabled()) {
            return new Check(Outcome.DISABLED, Optional.empty());
        }
        if (check == PasswordHasher.Check.MATCH_NEEDS_REHASH) {
            upgradeHash(stored.account().name(), password);
        }
        return new Check(Outcome.OK, Optional.of(stored.account()));
    }

    /** Whether {@code password} is the user's current one (for a self-service password change). */
    public boolean passwordMatches(String name, String password) {
        Stored stored = users.get(name);
        if (stored == null) {
            hasher.verifyDecoy(password);
            return false;
        }
        return hasher.verify(password, stored.hash()) != PasswordHasher.Check.MISMATCH;
    }

    /** Creates an enabled user. */
    public UserAccount create(String typedName, String password, List<String> roleNames) {
        String name = UserAccount.canonicalName(typedName);
        requireKnownRoles(roleNames);
        hasher.checkPolicy(name, password);
        String hash = hasher.hash(password);
        Instant now = clock.instant();
        UserAccount account = new UserAccount(name, roleNames, false, now, now);
        synchronized (this) {
            if (users.containsKey(name)) {
                throw new UserExistsException("user " + name + " already exists");
            }
            Map<String, Stored> next = new LinkedHashMap<>(users);
            next.put(name, new Stored(account, hash));
            commit(next);
        }
        return account;
    }

    public UserAccount changePassword(String name, String password) {
        hasher.checkPolicy(name, password);
        String hash = hasher.hash(password);
        Instant now = clock.instant();
        return update(name, s -> new Stored(s.account().withPasswordChanged(now), hash));
    }

    public UserAccount setRoles(String name, List<String> roleNames) {
        requireKnownRoles(roleNames);
        return update(name, s -> new Stored(s.account().withRoles(roleNames), s.hash()));
    }

    public UserAccount setDisabled(String name, boolean disabled) {
        return update(name, s -> new Stored(s.account().withDisabled(disabled), s.hash()));
    }

    public synchronized void delete(String name) {
        Map<String, Stored> next = new LinkedHashMap<>(users);
        if (next.remove(name) == null) {
            throw new UserNotFoundException("no user " + name);
        }
        protectLastAdmin(next, "delete");
        commit(next);
    }

    private synchronized UserAccount update(String name, UnaryOperator<Stored> change) {
        Stored before = users.get(name);
        if (before == null) {
            throw new UserNotFoundException("no user " + name);
        }
        Stored after = change.apply(before);
        Map<String, Stored> next = new LinkedHashMap<>(users);
        next.put(name, after);
        protectLastAdmin(next, after.account().disabled() ? "disable" : "change the roles of");
        commit(next);
        return after.account();
    }

    private void upgradeHash(String name, String password) {
        String hash = hasher.hash(password);
        try {
            update(name, s -> new Stored(s.account(), hash));
            LOG.info("Upgraded the password hash of user {} to the configured Argon2id parameters", name);
        } catch (RuntimeException e) {
            LOG.warn("Could not store the upgraded password hash of user {}; the old one stays valid: {}", name,
                    e.toString());
        }
    }

    private void protectLastAdmin(Map<String, Stored> next, String verb) {
        if (enabledManagers(users) > 0 && enabledManagers(next) == 0) {
            throw new LastAdminException("cannot " + verb + " the last enabled user who can manage users;"
                    + " give Manage users to another user first");
        }
    }

    private long enabledManagers(Map<String, Stored> map) {
        return map.values().stream().map(Stored::account)
                .filter(a -> !a.disabled() && roles.permissionsOf(a.roles()).contains(Permission.MANAGE_USERS))
                .count();
    }

    private void requireKnownRoles(List<String> roleNames) {
        roles.firstUnknown(roleNames).ifPresent(role -> {
            throw new InvalidNameException("no role named " + role + "; roles are " + roles.all().stream()
                    .map(Role::name).toList());
        });
    }

    /** Writes {@code next} durably, then makes it the current state. Caller holds the lock. */
    private void commit(Map<String, Stored> next) {
        if (damage.isPresent()) {
            throw new UncheckedIOException(new CorruptStoreException(file.path(), 0, damage.get().problem()));
        }
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("users", Integer.toString(next.size()));
        int i = 0;
        for (Stored stored : next.values()) {
            String key = "user." + i++ + ".";
            UserAccount a = stored.account();
            entries.put(key + "name", a.name());
            entries.put(key + "hash", stored.hash());
            entries.put(key + "roles", String.join(",", a.roles()));
            entries.put(key + "disabled", Boolean.toString(a.disabled()));
            entries.put(key + "created", a.created().toString());
            entries.put(key + "password_changed", a.passwordChanged().toString());
        }
        try {
            file.write(entries);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file.path() + "; nothing was changed", e);
        }
        users = Collections.unmodifiableMap(new LinkedHashMap<>(next));
    }
}
