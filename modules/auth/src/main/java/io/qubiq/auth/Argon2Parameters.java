package io.qubiq.auth;

/**
 * Cost of one Argon2id password hash (RFC 9106, version 0x13, 16-byte random salt, 32-byte output).
 *
 * <p>The default is OWASP's baseline for Argon2id, 19 MiB of memory, 2 passes, 1 lane: about 130 ms per
 * hash on one core of the 2-core reference machine with password4j (pure Java). Every sign-in
 * costs one hash, and so does every failed one; {@link PasswordHasher} caps how many run at once, which
 * bounds the memory to {@code memoryKib} times that cap. Raising the parameters is safe: stored hashes
 * keep their own parameters and are upgraded at the user's next successful sign-in.
 *
 * @param memoryKib   memory per hash in KiB, at least 8 × parallelism
 * @param iterations  passes over the memory, at least 1
 * @param parallelism lanes, at least 1
 */
public record Argon2Parameters(int memoryKib, int iterations, int parallelism) {

    /** OWASP's Argon2id baseline: m=19456 KiB, t=2, p=1. */
    public static final Argon2Parameters RECOMMENDED = new Argon2Parameters(19_456, 2, 1);

    public Argon2Parameters {
        if (parallelism < 1 || iterations < 1 || memoryKib < 8 * parallelism) {
            throw new IllegalArgumentException("Argon2id needs parallelism >= 1, iterations >= 1 and"
                    + " memory_kib >= 8 x parallelism; was m=" + memoryKib + ", t=" + iterations + ", p=" + parallelism);
        }
    }
}
