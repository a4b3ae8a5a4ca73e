package io.qubiq.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Slows password guessing: counts failed sign-ins per user name and per remote address, and after
 * {@code freeFailures} failures on either, makes the next attempt wait {@code baseDelay}, doubling with
 * each further failure up to {@code maxDelay}. The caller asks {@link #waitBefore} first and refuses
 * an attempt that must wait, without checking the password.
 *
 * <p>A successful sign-in forgets the user's counter, not the address's: one known account must not
 * let an address keep guessing others. A counter is also forgotten once {@code maxDelay} has passed
 * since its last failure. Because a delay (not a permanent lockout) is all an attacker can inflict,
 * a user whose name is being attacked waits at most {@code maxDelay} per attempt.
 *
 * <p><b>Memory</b> is bounded: at most {@code maxEntries} counters, least recently touched evicted
 * first (an attacker cycling through more names than that only resets counters of names nobody uses).
 *
 * <p><b>Threading.</b> Safe for concurrent use; every call holds the instance lock for O(1) work.
 * State is in memory only: a restart forgets every counter.
 */
public final class SignInThrottle {

    private static final class Counter {
        int failures;
        Instant lastFailure;
        Instant blockedUntil = Instant.MIN;
    }

    private final Clock clock;
    private final int freeFailures;
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final Map<String, Counter> counters;

    public SignInThrottle(Clock clock, int freeFailures, Duration baseDelay, Duration maxDelay, int maxEntries) {
        if (freeFailures < 1 || baseDelay.isNegative() || baseDelay.isZero() || maxDelay.compareTo(baseDelay) < 0
                || maxEntries < 2) {
            throw new IllegalArgumentException("need freeFailures >= 1, 0 < baseDelay <= maxDelay, maxEntries >= 2");
        }
        this.clock = clock;
        this.freeFailures = freeFailures;
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
        this.counters = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Counter> eldest) {
                return size() > maxEntries;
            }
        };
    }

    /** How long the caller must wait before trying this user from this address; zero when it may try now. */
    public synchronized Duration waitBefore(String user, String address) {
        Instant now = clock.instant();
        return longer(remaining(userKey(user), now), remaining(addressKey(address), now));
    }

    /** Counts a failed attempt; returns how long the next attempt for this user or address must wait. */
    public synchronized Duration recordFailure(String user, String address) {
        Instant now = clock.instant();
        return longer(fail(userKey(user), now), fail(addressKey(address), now));
    }

    /** A successful sign-in: forgets the user's failures (the address keeps its count). */
    public synchronized void recordSuccess(String user) {
        counters.remove(userKey(user));
    }

    /** Counters currently held (for tests and status). */
    public synchronized int size() {
        return counters.size();
    }

    private Duration fail(String key, Instant now) {
        Counter counter = current(key, now);
        if (counter == null) {
            counter = new Counter();
            counters.put(key, counter);
        }
        counter.failures++;
        counter.lastFailure = now;
        if (counter.failures >= freeFailures) {
            counter.blockedUntil = now.plus(delayAfter(counter.failures));
        }
        return remaining(key, now);
    }

    /** The wait after the {@code failures}-th failure, for failures >= freeFailures. */
    Duration delayAfter(int failures) {
        int doublings = failures - freeFailures;
        if (doublings >= 62 || baseDelay.toMillis() > maxDelay.toMillis() >> Math.min(doublings, 62)) {
            return maxDelay;
        }
        return baseDelay.multipliedBy(1L << doublings);
    }

    private Duration remaining(String key, Instant now) {
        Counter counter = current(key, now);
        if (counter == null || !counter.blockedUntil.isAfter(now)) {
            return Duration.ZERO;
        }
        return Duration.between(now, counter.blockedUntil);
    }

    /** The live counter under {@code key}, after forgetting it if {@code maxDelay} passed since its last failure. */
    private Counter current(String key, Instant now) {
        Counter counter = counters.get(key);
        if (counter != null && now.isAfter(counter.lastFailure.plus(maxDelay)) && !counter.blockedUntil.isAfter(now)) {
            counters.remove(key);
            return null;
        }
        return counter;
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static String userKey(String user) {
        return "user:" + bounded(user.strip().toLowerCase(Locale.ROOT));
    }

    private static String addressKey(String address) {
        return "from:" + bounded(address);
    }

    /** Keys are cut to 128 characters so a huge typed name cannot inflate memory. */
    private static String bounded(String value) {
        return value.length() > 128 ? value.substring(0, 128) : value;
    }
}
