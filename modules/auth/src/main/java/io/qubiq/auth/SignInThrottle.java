package io.qubiq.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Slows password guessing without letting anyone lock another person out.
 *
 * <p><b>Who counts against whom.</b> A failed sign-in for a user that exists counts against the pair
 * (user name, remote address) only: failures from one address never slow that user at another
 * address, and failures for one user never slow another user at the same address. A failed sign-in
 * for a name that is no user counts against the address's <em>unknown names</em> counter, which
 * known users at that address do not share: guessing names from 127.0.0.1 (which every local console
 * user shares) slows only further guesses at names, never a real user there.
 *
 * <p><b>The rule per counter.</b> The first {@code freeFailures} attempts may be checked, at once if they
 * come at once. Each attempt is counted <em>before</em> its password is checked: {@link #reserve} takes
 * a slot atomically, so of N parallel attempts exactly the free ones are checked and the others are
 * refused at once, without hashing. Once the free failures are used, the next attempt must wait
 * {@code baseDelay}, doubling with each further failure up to {@code maxDelay}, and only one attempt per
 * counter is checked at a time. A reserved slot is settled once: {@link #failed} counts it,
 * {@link #succeeded} forgets the counter, {@link #released} returns the slot uncounted (the attempt
 * was never checked). A counter is forgotten {@code maxDelay} after its last failure.
 *
 * <p>So an attacker can slow a user only at the attacker's own address (or one they share: NAT, or
 * 127.0.0.1 for local users), and then by at most {@code maxDelay} per attempt, never for good.
 *
 * <p><b>Memory</b> is bounded: at most {@code maxEntries} counters, least recently touched forgotten first
 * (a slot whose counter was forgotten settles as if it were new).
 *
 * <p><b>Threading.</b> Safe for concurrent use; every call holds the instance lock for O(1) work.
 * State is in memory only: a restart forgets every counter.
 */
public final class SignInThrottle {

    /** A reserved attempt: settle it exactly once with {@link #failed}, {@link #succeeded} or {@link #released}. */
    public static final class Slot {
        private final String key;
        private boolean settled;

        private Slot(String key) {
            this.key = key;
        }
    }

    /** The answer of {@link #reserve}: check the password with the slot, or refuse and say how long to wait. */
    public sealed interface Admission {
        record Admitted(Slot slot) implements Admission {
        }

        record MustWait(Duration retryAfter) implements Admission {
        }
    }

    private static final class Counter {
        int failures;
        int pending;
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

    /**
     * Reserves one attempt for {@code user} from {@code address}, or says how long to wait.
     *
     * @param knownUser whether {@code user} names an existing user (decides which counter applies)
     */
    public synchronized Admission reserve(String user, String address, boolean knownUser) {
        Instant now = clock.instant();
        String key = knownUser ? "user:" + bounded(user.strip().toLowerCase(Locale.ROOT)) + "@" + bounded(address)
                : "unknown@" + bounded(address);
        Counter counter = current(key, now);
        if (counter == null) {
            counter = new Counter();
            counters.put(key, counter);
        }
        if (counter.blockedUntil.isAfter(now)) {
            return new Admission.MustWait(Duration.between(now, counter.blockedUntil));
        }
        if (counter.pending > 0 && counter.failures + counter.pending >= freeFailures) {
            return new Admission.MustWait(delayAfter(counter.failures + counter.pending));
        }
        counter.pending++;
        return new Admission.Admitted(new Slot(key));
    }

    /** The slot's password was wrong (or the user may not sign in); returns how long the next attempt must wait. */
    public synchronized Duration failed(Slot slot) {
        if (settle(slot)) {
            return Duration.ZERO;
        }
        Instant now = clock.instant();
        Counter counter = counters.computeIfAbsent(slot.key, k -> new Counter());
        counter.pending = Math.max(0, counter.pending - 1);
        counter.failures++;
        counter.lastFailure = now;
        if (counter.failures >= freeFailures) {
            counter.blockedUntil = now.plus(delayAfter(counter.failures));
            return Duration.between(now, counter.blockedUntil);
        }
        return Duration.ZERO;
    }

    /** The slot's sign-in succeeded: forgets this user's failures from this address. */
    public synchronized void succeeded(Slot slot) {
        if (!settle(slot)) {
            counters.remove(slot.key);
        }
    }

    /** The slot's password was never checked: returns the slot without counting anything. */
    public synchronized void released(Slot slot) {
        if (!settle(slot)) {
            Counter counter = counters.get(slot.key);
            if (counter != null) {
                counter.pending = Math.max(0, counter.pending - 1);
            }
        }
    }

    /** Counters currently held (for tests and status). */
    public synchronized int size() {
        return counters.size();
    }

    /** Marks the slot settled; returns whether it already was. */
    private static boolean settle(Slot slot) {
        boolean was = slot.settled;
        slot.settled = true;
        return was;
    }

    /** The wait after the {@code failures}-th failure, for failures >= freeFailures. */
    Duration delayAfter(int failures) {
        int doublings = failures - freeFailures;
        if (doublings >= 62 || baseDelay.toMillis() > maxDelay.toMillis() >> Math.min(doublings, 62)) {
            return maxDelay;
        }
        return baseDelay.multipliedBy(1L << doublings);
    }

    /** The live counter under {@code key}, after forgetting it if it is idle and {@code maxDelay} passed. */
    private Counter current(String key, Instant now) {
        Counter counter = counters.get(key);
        if (counter != null && counter.pending == 0 && !counter.blockedUntil.isAfter(now)
                && (counter.lastFailure == null || now.isAfter(counter.lastFailure.plus(maxDelay)))) {
            counters.remove(key);
            return null;
        }
        return counter;
    }

    /** Keys are cut to 128 characters a part, so a huge typed name cannot inflate memory. */
    private static String bounded(String value) {
        return value.length() > 128 ? value.substring(0, 128) : value;
    }
}
