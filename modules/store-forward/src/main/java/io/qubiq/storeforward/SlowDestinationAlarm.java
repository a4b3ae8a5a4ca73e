package io.qubiq.storeforward;

import io.qubiq.core.event.DestinationSlowAlarm;
import io.qubiq.core.event.EventPublisher;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Raises the {@code destination_slow} alarm ({@link DestinationSlowAlarm}) while the channel's
 * {@link WriteWindow} is below {@code batch_max_items} because writes timed out, and clears it when
 * full batches go through again. The alarm says the delivery rate against the incoming rate (the
 * channel's {@link ChannelCounters} byte rates) and, when the buffer is filling, the time until it
 * is full; while it stays raised its figures are refreshed at most once a minute.
 *
 * <p>Threading: owned by the forwarder thread.
 */
final class SlowDestinationAlarm {

    static final long REFRESH_MS = 60_000;

    private final String connection;
    private final ChannelCounters counters;
    private final EventPublisher events;
    private final Clock clock;
    private final LongSupplier bufferedBytes;
    private final long maxBytes;
    private boolean active;
    private long raisedAtMillis;

    /**
     * @param bufferedBytes the bytes in the channel's buffer now
     * @param maxBytes      the buffer's limit
     */
    SlowDestinationAlarm(String connection, ChannelCounters counters, EventPublisher events, Clock clock,
                         LongSupplier bufferedBytes, long maxBytes) {
        this.connection = connection;
        this.counters = counters;
        this.events = events;
        this.clock = clock;
        this.bufferedBytes = bufferedBytes;
        this.maxBytes = maxBytes;
    }

    /** One that never publishes: for a delivery loop that has no events to raise alarms on. */
    static SlowDestinationAlarm silent(String connection, ChannelCounters counters, Clock clock) {
        return new SlowDestinationAlarm(connection, counters, EventPublisher.none(), clock, () -> 0, 0);
    }

    boolean active() {
        return active;
    }

    /** Called after each delivery attempt with the window it left behind. */
    void update(WriteWindow window) {
        long now = clock.millis();
        if (window.reduced()) {
            if (!active || now - raisedAtMillis >= REFRESH_MS) {
                active = true;
                raisedAtMillis = now;
                events.alarm(alarm(true, window));
            }
        } else if (active) {
            active = false;
            events.alarm(alarm(false, window));
        }
    }

    private DestinationSlowAlarm alarm(boolean raised, WriteWindow window) {
        double in = counters.bytesIn.rate();
        double out = counters.bytesOut.rate();
        Optional<Duration> toFull = Optional.empty();
        if (raised && maxBytes > 0 && in > out) {
            long room = Math.max(0, maxBytes - bufferedBytes.getAsLong());
            toFull = Optional.of(Duration.ofSeconds((long) Math.ceil(room / (in - out))));
        }
        return new DestinationSlowAlarm(connection, raised, clock.instant(), window.items(), window.maxItems(), in, out,
                toFull);
    }
}
