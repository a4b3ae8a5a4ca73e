package io.qubiq.storeforward;

import io.qubiq.buffer.BufferDamage;
import io.qubiq.buffer.BufferStats;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.core.event.BufferPressureAlarm;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.ItemsDroppedAlarm;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a buffer's water-mark crossings into the buffer-pressure alarm (DESIGN.md rule 5), and its
 * drop-oldest discards into the items-dropped alarm (rule 9), and passes drops and read-time damage on to
 * the loss ledger ({@link ChannelLosses}). The high-water mark lies below the
 * limit, so the pressure alarm always fires before the first item is dropped.
 *
 * <p>Each alarm is raised once per episode and cleared once, when the buffer falls back to its
 * low-water mark. Threading: the water-mark callbacks come from appending and acknowledging
 * threads while they hold the buffer's locks, so they only compute and publish; {@link
 * #noteDrops} is called by producers after an append.
 */
final class PressureAlarms implements WatermarkListener {

    private static final Logger log = LoggerFactory.getLogger(PressureAlarms.class);

    private final String connection;
    private final ChannelCounters counters;
    private final EventPublisher events;
    private final Clock clock;
    private final ChannelLosses losses;
    private final AtomicBoolean pressure = new AtomicBoolean();
    private final AtomicBoolean dropping = new AtomicBoolean();
    private final AtomicLong droppedSeen = new AtomicLong();
    private final AtomicLong episodeStart = new AtomicLong();

    PressureAlarms(String connection, ChannelCounters counters, EventPublisher events, Clock clock,
                   ChannelLosses losses) {
        this.connection = connection;
        this.losses = losses;
        this.counters = counters;
        this.events = events;
        this.clock = clock;
    }

    boolean pressureActive() {
        return pressure.get();
    }

    @Override
    public void onHighWater(BufferStats stats) {
        if (pressure.compareAndSet(false, true)) {
            BufferPressureAlarm alarm = alarm(true, stats);
            log.warn("{}", alarm.message());
            events.alarm(alarm);
        }
    }

    @Override
    public void onLowWater(BufferStats stats) {
        if (pressure.compareAndSet(true, false)) {
            BufferPressureAlarm alarm = alarm(false, stats);
            log.info("{}", alarm.message());
            events.alarm(alarm);
        }
        if (dropping.compareAndSet(true, false)) {
            long total = stats.droppedRecords();
            events.alarm(new ItemsDroppedAlarm(connection, false, clock.instant(), total - episodeStart.get(), total));
        }
    }

    /** A read stepped over damaged records: told to the loss ledger, never thrown at the reader. */
    @Override
    public void onDamage(BufferDamage damage) {
        losses.damaged(damage);
    }

    /** Compares the buffer's drop total with the last one seen; raises the drop alarm on the first drop. */
    void noteDrops(long droppedTotal) {
        noteDrops(droppedTotal, false);
    }

    /** As {@link #noteDrops(long)}; {@code diskFull}: the drops were made because the disk is almost full. */
    void noteDrops(long droppedTotal, boolean diskFull) {
        long before = droppedSeen.getAndAccumulate(droppedTotal, Math::max);
        if (droppedTotal <= before) {
            return;
        }
        if (diskFull) {
            losses.droppedDiskFull(droppedTotal - before);
        } else {
            losses.dropped(droppedTotal - before);
        }
        if (dropping.compareAndSet(false, true)) {
            episodeStart.set(before);
            ItemsDroppedAlarm alarm = new ItemsDroppedAlarm(connection, true, clock.instant(), droppedTotal - before,
                    droppedTotal);
            log.error("{}", alarm.message());
            events.alarm(alarm);
        }
    }

    private BufferPressureAlarm alarm(boolean active, BufferStats stats) {
        double in = counters.bytesIn.rate();
        double out = counters.bytesOut.rate();
        double fill = stats.maxBytes() == 0 ? 0 : 100.0 * stats.usedBytes() / stats.maxBytes();
        Optional<Duration> timeToFull = Optional.empty();
        if (active && in > out) {
            double seconds = (stats.maxBytes() - stats.usedBytes()) / (in - out);
            timeToFull = Optional.of(Duration.ofMillis((long) (Math.max(0, seconds) * 1000)));
        }
        return new BufferPressureAlarm(connection, active, clock.instant(), fill, stats.usedBytes(), stats.maxBytes(),
                in, out, timeToFull);
    }
}
