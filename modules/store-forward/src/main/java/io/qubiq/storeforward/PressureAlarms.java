package io.qubiq.storeforward;

import io.qubiq.buffer.BufferDamage;
import io.qubiq.buffer.BufferStats;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.core.event.BufferPressureAlarm;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.ItemsDroppedAlarm;
import io.qubiq.core.event.ItemsRefusedAlarm;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a buffer's water-mark crossings into the buffer-pressure alarm (DESIGN.md rule 5), its
 * drop-oldest discards into the items-dropped alarm (rule 9) and its refusals at the limit into the
 * items-refused alarm, and passes drops and read-time damage on to the loss ledger ({@link
 * ChannelLosses}). The high-water mark lies below the limit, so the pressure alarm always fires
 * before the first item is dropped or refused.
 *
 * <p>Each alarm is raised once per episode and cleared once: the pressure and drop alarms when the
 * buffer falls back to its low-water mark, the refusal alarm then too or as soon as an append
 * succeeds again. While the pressure alarm is raised, its message follows the fill: it is published
 * again, under the same key, whenever the fill moved by {@value #FOLLOW_FILL_POINTS} points or more
 * since the last publication, or a minute passed. Time to full is computed from the fill's change
 * over the last ten seconds ({@link FillTrend}), not from the smoothed rates, which lag.
 *
 * <p>Threading: the water-mark callbacks come from appending and acknowledging threads while they
 * hold the buffer's locks, so they only compute and publish; {@link #noteAppended} and {@link
 * #noteRefused} are called by producers after an append succeeded or was refused.
 */
final class PressureAlarms implements WatermarkListener {

    private static final Logger log = LoggerFactory.getLogger(PressureAlarms.class);
    static final double FOLLOW_FILL_POINTS = 5.0;
    static final long FOLLOW_FILL_EVERY_NANOS = 60_000_000_000L;
    static final long TREND_WINDOW_MS = 10_000;

    private final String connection;
    private final ChannelCounters counters;
    private final EventPublisher events;
    private final Clock clock;
    private final ChannelLosses losses;
    private final AtomicBoolean pressure = new AtomicBoolean();
    private final AtomicBoolean dropping = new AtomicBoolean();
    private final AtomicLong droppedSeen = new AtomicLong();
    private final AtomicLong episodeStart = new AtomicLong();
    private final AtomicBoolean refusing = new AtomicBoolean();
    private final AtomicLong refusedEpisodeStart = new AtomicLong();
    private final FillTrend trend;
    /** The fill and time of the last pressure publication; guarded by {@code this}. */
    private double publishedFill;
    private long publishedNanos;

    PressureAlarms(String connection, ChannelCounters counters, EventPublisher events, Clock clock,
                   ChannelLosses losses) {
        this.connection = connection;
        this.losses = losses;
        this.counters = counters;
        this.events = events;
        this.clock = clock;
        this.trend = new FillTrend(TREND_WINDOW_MS, counters.nanoClock);
    }

    boolean pressureActive() {
        return pressure.get();
    }

    /** True from a refusal until the buffer takes items again or falls to its low-water mark. */
    boolean refusing() {
        return refusing.get();
    }

    @Override
    public void onHighWater(BufferStats stats) {
        trend.sample(stats.usedBytes());
        if (pressure.compareAndSet(false, true)) {
            publishPressure(stats);
        }
    }

    /** Raise, follow-up and clear are published under this lock, so a follow-up never lands after the clear. */
    private synchronized void publishPressure(BufferStats stats) {
        BufferPressureAlarm alarm = alarm(true, stats);
        publishedFill = alarm.fillPercent();
        publishedNanos = counters.nanoClock.getAsLong();
        log.warn("{}", alarm.message());
        events.alarm(alarm);
    }

    @Override
    public void onLowWater(BufferStats stats) {
        synchronized (this) {
            if (pressure.compareAndSet(true, false)) {
                BufferPressureAlarm alarm = alarm(false, stats);
                log.info("{}", alarm.message());
                events.alarm(alarm);
            }
        }
        if (dropping.compareAndSet(true, false)) {
            long total = stats.droppedRecords();
            events.alarm(new ItemsDroppedAlarm(connection, false, clock.instant(), total - episodeStart.get(), total));
        }
        stopRefusing();
    }

    /** A read stepped over damaged records: told to the loss ledger, never thrown at the reader. */
    @Override
    public void onDamage(BufferDamage damage) {
        losses.damaged(damage);
    }

    /**
     * After an append succeeded: the buffer takes items again (clears the refusal alarm), drops are
     * compared with the last total seen, and the pressure alarm's message follows the fill.
     */
    void noteAppended(BufferStats stats) {
        noteAppended(stats, false);
    }

    /** As {@link #noteAppended(BufferStats)}; {@code diskFull}: drops were made for the disk's critical reserve. */
    void noteAppended(BufferStats stats, boolean diskFull) {
        noteDrops(stats.droppedRecords(), diskFull);
        stopRefusing();
        trend.sample(stats.usedBytes());
        if (pressure.get()) {
            followFill(stats);
        }
    }

    /**
     * A full buffer with the refuse policy turned {@code items} away: counted, and the refusal alarm
     * raised on the first refusal of an episode (logged at ERROR: the items are lost).
     */
    void noteRefused(int items) {
        long total = counters.itemsRefused.addAndGet(items);
        if (refusing.compareAndSet(false, true)) {
            refusedEpisodeStart.set(total - items);
            ItemsRefusedAlarm alarm = new ItemsRefusedAlarm(connection, true, clock.instant(), items, total);
            log.error("{}", alarm.message());
            events.alarm(alarm);
        }
    }

    private void stopRefusing() {
        if (refusing.compareAndSet(true, false)) {
            long total = counters.itemsRefused.get();
            ItemsRefusedAlarm alarm = new ItemsRefusedAlarm(connection, false, clock.instant(),
                    total - refusedEpisodeStart.get(), total);
            log.info("{}", alarm.message());
            events.alarm(alarm);
        }
    }

    /** Publishes the pressure alarm again when the fill moved enough since the last time, or a minute passed. */
    private void followFill(BufferStats stats) {
        double fill = fillPercent(stats);
        long now = counters.nanoClock.getAsLong();
        synchronized (this) {
            if (!pressure.get()
                    || Math.abs(fill - publishedFill) < FOLLOW_FILL_POINTS && now - publishedNanos < FOLLOW_FILL_EVERY_NANOS) {
                return;
            }
            publishedFill = fill;
            publishedNanos = now;
            events.alarm(alarm(true, stats));
        }
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
        Optional<Duration> timeToFull = active ? timeToFull(stats, in - out) : Optional.empty();
        return new BufferPressureAlarm(connection, active, clock.instant(), fillPercent(stats), stats.usedBytes(),
                stats.maxBytes(), in, out, timeToFull);
    }

    /**
     * At the fill's growth over the last ten seconds (the smoothed in minus out rate until that
     * window has samples), when the buffer reaches its limit; empty when it is not filling.
     */
    private Optional<Duration> timeToFull(BufferStats stats, double smoothedGrowth) {
        OptionalDouble recent = trend.bytesPerSecond();
        double growth = recent.isPresent() ? recent.getAsDouble() : smoothedGrowth;
        if (growth <= 0) {
            return Optional.empty();
        }
        double seconds = Math.max(0, stats.maxBytes() - stats.usedBytes()) / growth;
        return Optional.of(Duration.ofMillis((long) (seconds * 1000)));
    }

    private static double fillPercent(BufferStats stats) {
        return stats.maxBytes() == 0 ? 0 : 100.0 * stats.usedBytes() / stats.maxBytes();
    }
}
