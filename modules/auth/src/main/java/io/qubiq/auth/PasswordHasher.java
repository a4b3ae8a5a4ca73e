package io.qubiq.auth;

import com.password4j.Argon2Function;
import com.password4j.types.Argon2;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hashes and verifies passwords with Argon2id (password4j), and enforces the {@link PasswordPolicy}.
 *
 * <p>Stored form: the standard PHC string {@code $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>}, which carries
 * its own parameters, so changing {@link Argon2Parameters} never locks anyone out: {@link #verify} checks
 * against the stored parameters and reports {@link Check#MATCH_NEEDS_REHASH} when they differ from the
 * current ones, and the caller stores a fresh hash (the upgrade path). The derived keys are compared
 * with {@link Secrets#constantTimeEquals}. The salt comes from this class's own {@code SecureRandom}.
 *
 * <p>Thread-safe. At most {@code maxConcurrent} hashes run at once (each takes {@code memoryKib} of
 * heap); further callers wait their turn. Sign-in does not queue here: its {@link CheckGate} turns
 * callers away before they reach this queue.
 */
public final class PasswordHasher {

    /** Longer passwords are refused, so nobody can make the server hash megabytes. */
    public static final int MAX_LENGTH = PasswordPolicy.MAX_LENGTH;

    /**
     * A stored hash no password matches, verified against for unknown users so they cost the same time:
     * see {@link #decoy(Argon2Parameters)}.
     */
    private final String decoy;
    private final Argon2Parameters parameters;
    private final Argon2Function current;
    private final PasswordPolicy policy;
    private final Semaphore slots;
    private final AtomicLong verifications = new AtomicLong();

    public enum Check { MATCH, MATCH_NEEDS_REHASH, MISMATCH }

    public PasswordHasher(Argon2Parameters parameters, int minLength, int maxConcurrent) {
        this.policy = new PasswordPolicy(minLength);
        this.parameters = parameters;
        this.current = function(parameters);
        this.slots = new Semaphore(Math.max(1, maxConcurrent), true);
        this.decoy = decoy(parameters);
    }

    public Argon2Parameters parameters() {
        return parameters;
    }

    public int minLength() {
        return policy.minLength();
    }

    /**
     * Refuses a password for {@code user} that breaks the {@link PasswordPolicy}.
     *
     * @throws PasswordRejectedException saying what is required
     */
    public void checkPolicy(String user, String password) {
        policy.check(user, password);
    }

    /** A new salted hash of {@code password} with the current parameters (no policy check). */
    public String hash(String password) {
        byte[] salt = Secrets.randomBytes(16);
        return run(() -> current.hash(password.getBytes(StandardCharsets.UTF_8), salt).getResult());
    }

    /** Whether {@code password} matches {@code stored}; a stored value that is not Argon2id never matches. */
    public Check verify(String password, String stored) {
        verifications.incrementAndGet();
        String[] parts = stored.split("\\$");
        if (parts.length != 6 || !parts[1].equals("argon2id") || password.length() > 4 * MAX_LENGTH) {
            verifyDecoy(password);
            return Check.MISMATCH;
        }
        Argon2Function function;
        byte[] salt;
        byte[] expected;
        try {
            function = Argon2Function.getInstanceFromHash(stored);
            salt = Base64.getDecoder().decode(parts[4]);
            expected = Base64.getDecoder().decode(parts[5]);
        } catch (RuntimeException malformed) {
            verifyDecoy(password);
            return Check.MISMATCH;
        }
        byte[] actual = run(() -> function.hash(password.getBytes(StandardCharsets.UTF_8), salt).getBytes());
        if (!Secrets.constantTimeEquals(actual, expected)) {
            return Check.MISMATCH;
        }
        return function.equals(current) ? Check.MATCH : Check.MATCH_NEEDS_REHASH;
    }

    /** How many verifications (decoys included) this hasher has run, for tests and status. */
    long verifications() {
        return verifications.get();
    }

    /** Spends the time of one verification, for a user that does not exist or may not sign in. */
    public void verifyDecoy(String password) {
        verify(password.length() > MAX_LENGTH ? "" : password, decoy);
    }

    /** The decoy, for tests. */
    String decoy() {
        return decoy;
    }

    /**
     * A stored form with the current parameters, a random salt and a random 32-byte digest, in the PHC
     * string {@link #hash} writes: verifying against it runs one Argon2id with the current parameters, like
     * a real user's check, and matches no password anyone can find (an Argon2id digest is no more
     * predictable than random bytes). Built without hashing: hashing a random password here cost the
     * gateway's start 0.7 to 0.9 s of a cold JVM.
     */
    private static String decoy(Argon2Parameters p) {
        Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
        return "$argon2id$v=19$m=" + p.memoryKib() + ",t=" + p.iterations() + ",p=" + p.parallelism() + "$"
                + base64.encodeToString(Secrets.randomBytes(16)) + "$" + base64.encodeToString(Secrets.randomBytes(32));
    }

    private static Argon2Function function(Argon2Parameters p) {
        return Argon2Function.getInstance(p.memoryKib(), p.iterations(), p.parallelism(), 32, Argon2.ID,
                Argon2Function.ARGON2_VERSION_13);
    }

    private <T> T run(java.util.function.Supplier<T> work) {
        slots.acquireUninterruptibly();
        try {
            return work.get();
        } finally {
            slots.release();
        }
    }
}
