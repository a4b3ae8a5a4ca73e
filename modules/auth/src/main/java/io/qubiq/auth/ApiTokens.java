package io.qubiq.auth;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * API tokens for automation: each acts as one user, presented as {@code Authorization: Bearer qbq_…}.
 *
 * <p><b>Secrets.</b> A secret is {@code qbq_} plus 256 random bits (43 URL-safe base64 characters). It is
 * returned once by {@link #create} and stored only as its SHA-256; {@link #authenticate} hashes the
 * presented value and looks the hash up, so no secret is ever compared byte by byte.
 *
 * <p><b>File.</b> {@code <directory>/api-tokens.properties}, format {@code qubiq-api-tokens/1}, written
 * and recovered exactly like {@link UserStore}'s file: {@code tokens=N}, then {@code token.i.id},
 * {@code .owner}, {@code .name}, {@code .secret_sha256}, {@code .created}, and optional {@code .last_used},
 * {@code .expires}. Create and revoke are committed when they return. Last-used times are written at
 * most once a minute per token (on the request that uses it), so a crash can lose up to a minute of
 * that detail and nothing else; a failure to write it is logged and does not refuse the request.
 *
 * <p><b>Rules.</b> A token of a disabled user is refused while the user stays disabled; deleting a user
 * and setting their password should revoke their tokens ({@link UserAdministration} does, and refuses to
 * create a token for a request that was itself authenticated by a token); a token whose owner no longer exists
 * is refused anyway, and so is a token older than its owner (a user deleted and created again under the
 * same name does not inherit the old user's tokens). An expired token is refused.
 *
 * <p><b>Threading.</b> Safe for concurrent use: lock-free reads of an immutable snapshot, changes
 * serialized by the instance lock.
 */
public final class ApiTokens {

    private static final Logger LOG = LoggerFactory.getLogger(ApiTokens.class);
    static final String FILE_NAME = "api-tokens.properties";
    public static final String PREFIX = "qbq_";
    private static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);

    /** A newly created token with its secret, which is not available again. */
    public record Created(ApiToken token, String secret) {
        @Override
        public String toString() {
            return "Created[" + token + "]";
        }
    }

    private record Stored(ApiToken token, String secretHash) {
    }

    private final StoreFile file;
    private final UserStore users;
    private final Clock clock;
    private final Optional<StoreDamage> damage;
    private volatile Map<String, Stored> byHash;

    private ApiTokens(StoreFile file, UserStore users, Clock clock, Map<String, Stored> byHash,
                      Optional<StoreDamage> damage) {
        this.file = file;
        this.users = users;
        this.clock = clock;
        this.byHash = byHash;
        this.damage = damage;
    }

    /**
     * Tokens standing in for a damaged file: none authenticates and none can be created or revoked, so the
     * damaged file is never overwritten while the gateway runs ({@link AdminReset} empties it, gateway stopped).
     */
    static ApiTokens damaged(Path directory, UserStore users, Clock clock, StoreDamage damage) {
        StoreFile file = new StoreFile(directory.resolve(FILE_NAME), "qubiq-api-tokens/1", "Qubiq API tokens"
                + " (secrets are stored as SHA-256 only).", FileOps.system(), AtomicFile.BeforeRename.NOTHING);
        return new ApiTokens(file, users, clock, Map.of(), Optional.of(damage));
    }

    /** Replaces the file in {@code directory}, whatever it holds, with one holding no token; committed on return. */
    static void writeEmpty(Path directory) throws IOException {
        new StoreFile(directory.resolve(FILE_NAME), "qubiq-api-tokens/1", "Qubiq API tokens (secrets are stored as"
                + " SHA-256 only).", FileOps.system(), AtomicFile.BeforeRename.NOTHING).write(Map.of("tokens", "0"));
    }

    /** Present when the file was found damaged on open: then no token works. */
    public Optional<StoreDamage> damage() {
        return damage;
    }

    /**
     * Opens (or starts empty) the token file in {@code directory}.
     *
     * @throws CorruptStoreException if the file exists but is damaged; it is left as it is
     */
    public static ApiTokens open(Path directory, UserStore users, Clock clock) throws IOException {
        return open(directory, users, clock, FileOps.system());
    }

    /** With custom file operations: the power-loss tests record them. */
    public static ApiTokens open(Path directory, UserStore users, Clock clock, FileOps files) throws IOException {
        files.createDirectories(directory);
        StoreFile file = new StoreFile(directory.resolve(FILE_NAME), "qubiq-api-tokens/1", "Qubiq API tokens"
                + " (secrets are stored as SHA-256 only).", files, AtomicFile.BeforeRename.NOTHING);
        Map<String, Stored> tokens = new LinkedHashMap<>();
        Optional<StoreFile.Entries> entries = file.read();
        if (entries.isPresent()) {
            StoreFile.Entries e = entries.get();
            int count = e.count("tokens");
            for (int i = 0; i < count; i++) {
                String key = "token." + i + ".";
                try {
                    ApiToken token = new ApiToken(e.required(key + "id"), e.required(key + "owner"),
                            e.required(key + "name"), Instant.parse(e.required(key + "created")),
                            e.optional(key + "last_used").map(Instant::parse), e.optional(key + "expires").map(Instant::parse));
                    tokens.put(e.required(key + "secret_sha256"), new Stored(token, e.required(key + "secret_sha256")));
                } catch (DateTimeParseException bad) {
                    throw new CorruptStoreException(file.path(), 0, key + "*: " + bad.getMessage());
                }
            }
        }
        return new ApiTokens(file, users, clock, Collections.unmodifiableMap(tokens), Optional.empty());
    }

    /**
     * Creates a token acting as {@code owner}.
     *
     * @param name    1 to 100 printable characters
     * @param expires when it stops working; empty for never
     * @throws UserNotFoundException if {@code owner} does not exist
     */
    public Created create(String owner, String name, Optional<Instant> expires) {
        String label = name.strip();
        if (label.isEmpty() || label.length() > 100 || label.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidNameException("a token name is 1 to 100 printable characters");
        }
        String secret = PREFIX + Secrets.random(32);
        ApiToken token = new ApiToken("tk_" + Secrets.random(9), owner, label, clock.instant(), Optional.empty(),
                expires);
        synchronized (this) {
            if (users.find(owner).isEmpty()) {
                throw new UserNotFoundException("no user " + owner);
            }
            Map<String, Stored> next = new LinkedHashMap<>(byHash);
            next.put(Secrets.sha256(secret), new Stored(token, Secrets.sha256(secret)));
            commit(next);
        }
        return new Created(token, secret);
    }

    public List<ApiToken> list() {
        return byHash.values().stream().map(Stored::token).toList();
    }

    public List<ApiToken> listOf(String owner) {
        return list().stream().filter(t -> t.owner().equals(owner)).toList();
    }

    public Optional<ApiToken> find(String id) {
        return list().stream().filter(t -> t.id().equals(id)).findFirst();
    }

    /** Revokes the token with this id at once: the next request presenting it is refused. */
    public synchronized ApiToken revoke(String id) {
        Map<String, Stored> next = new LinkedHashMap<>(byHash);
        Optional<Stored> stored = next.values().stream().filter(s -> s.token().id().equals(id)).findFirst();
        if (stored.isEmpty()) {
            throw new TokenNotFoundException("no API token " + id);
        }
        next.remove(stored.get().secretHash());
        commit(next);
        return stored.get().token();
    }

    /** Revokes every token of {@code owner}; returns them. */
    public List<ApiToken> revokeAllOf(String owner) {
        return revokeAllOfExcept(owner, "");
    }

    /** Revokes every token of {@code owner} but the one with id {@code keptId} (none when blank); returns them. */
    public synchronized List<ApiToken> revokeAllOfExcept(String owner, String keptId) {
        Map<String, Stored> next = new LinkedHashMap<>(byHash);
        List<ApiToken> revoked = listOf(owner).stream().filter(t -> !t.id().equals(keptId)).toList();
        if (!revoked.isEmpty()) {
            next.values().removeIf(s -> s.token().owner().equals(owner) && !s.token().id().equals(keptId));
            commit(next);
        }
        return revoked;
    }

    /**
     * The token a presented secret belongs to, when it is valid now: known, not expired, and its owner
     * exists and is enabled. Cheap: one SHA-256 and a map lookup (plus a file write at most once a minute).
     */
    public Optional<ApiToken> authenticate(String secret) {
        if (secret == null || !secret.startsWith(PREFIX) || secret.length() > 200) {
            return Optional.empty();
        }
        Stored stored = byHash.get(Secrets.sha256(secret));
        Instant now = clock.instant();
        if (stored == null || stored.token().expiredAt(now)) {
            return Optional.empty();
        }
        Optional<UserAccount> owner = users.find(stored.token().owner());
        if (owner.isEmpty() || owner.get().disabled() || owner.get().created().isAfter(stored.token().created())) {
            return Optional.empty();
        }
        boolean stale = stored.token().lastUsed().map(t -> !now.isBefore(t.plus(LAST_USED_RESOLUTION))).orElse(true);
        if (stale) {
            recordUse(stored, now);
        }
        return Optional.of(stored.token());
    }

    private synchronized void recordUse(Stored stored, Instant now) {
        if (!byHash.containsKey(stored.secretHash())) {
            return;
        }
        Map<String, Stored> next = new LinkedHashMap<>(byHash);
        next.put(stored.secretHash(), new Stored(stored.token().usedAt(now), stored.secretHash()));
        try {
            commit(next);
        } catch (UncheckedIOException e) {
            LOG.warn("Could not record the last use of API token {}: {}", stored.token().id(), e.getCause().toString());
        }
    }

    /** Writes {@code next} durably, then makes it current. Caller holds the lock. */
    private void commit(Map<String, Stored> next) {
        if (damage.isPresent()) {
            throw new UncheckedIOException(new CorruptStoreException(file.path(), 0, damage.get().problem()));
        }
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("tokens", Integer.toString(next.size()));
        int i = 0;
        for (Stored stored : next.values()) {
            String key = "token." + i++ + ".";
            ApiToken t = stored.token();
            entries.put(key + "id", t.id());
            entries.put(key + "owner", t.owner());
            entries.put(key + "name", t.name());
            entries.put(key + "secret_sha256", stored.secretHash());
            entries.put(key + "created", t.created().toString());
            t.lastUsed().ifPresent(v -> entries.put(key + "last_used", v.toString()));
            t.expires().ifPresent(v -> entries.put(key + "expires", v.toString()));
        }
        try {
            file.write(entries);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file.path() + "; nothing was changed", e);
        }
        byHash = Collections.unmodifiableMap(next);
    }
}
