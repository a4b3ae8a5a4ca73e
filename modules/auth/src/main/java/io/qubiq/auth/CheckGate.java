package io.qubiq.auth;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds how many sign-in password checks run at once (each is one Argon2id hash: CPU and
 * {@code password_hash_memory_kib} of heap). A caller that finds every place taken waits at most
 * {@code patience}, then is turned away rather than queued, so a burst of guesses can never make a
 * legitimate sign-in wait behind it: it is answered at once or told to retry.
 *
 * <p>Thread-safe.
 */
final class CheckGate {

    private final Semaphore places;
    private final long patienceNanos;

    /** @param places how many checks may run at once (normally the number of cores) */
    CheckGate(int places, Duration patience) {
        if (places < 1 || patience.isNegative()) {
            throw new IllegalArgumentException("need places >= 1 and a patience >= 0");
        }
        this.places = new Semaphore(places);
        this.patienceNanos = patience.toNanos();
    }

    /** Takes a place, waiting at most the patience; false when none came free. */
    boolean tryEnter() {
        try {
            return places.tryAcquire(patienceNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Gives back a place {@link #tryEnter} took. */
    void leave() {
        places.release();
    }
}
