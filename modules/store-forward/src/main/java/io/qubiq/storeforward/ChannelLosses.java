package io.qubiq.storeforward;

import io.qubiq.buffer.BufferDamage;
import io.qubiq.buffer.RecoveryReport;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything one channel discards, told to the loss ledger ({@link EventPublisher#lost}): records
 * damage cost (found when the buffer opened, or while reading), the oldest items a drop-oldest
 * buffer gave up at its limit, and batches a refusing buffer turned away (both also while the disk
 * is almost full, as {@code disk_full}), and items the buffer could not store because the disk was
 * full (ENOSPC, also {@code disk_full}).
 *
 * <p>Drops and refusals come from producers, possibly one per append, so they are summed and
 * published at most once a second per reason (and by {@link #flush()}, which the forwarder calls
 * as it loops and the channel calls on stop); damage is rare and published as found.
 *
 * <p><b>Threading.</b> Safe for producers, the forwarder and the lifecycle thread at once.
 */
final class ChannelLosses {

    private static final Logger log = LoggerFactory.getLogger(ChannelLosses.class);
    private static final long PUBLISH_EVERY_MILLIS = 1_000;

    private final String connection;
    private final EventPublisher events;
    private final Clock clock;
    private final Pending dropped = new Pending(LossReason.DROP_OLDEST,
            "the buffer was at its max_bytes limit (overflow_policy drop_oldest): the oldest items were discarded");
    private final Pending refused = new Pending(LossReason.REFUSED,
            "the buffer was at its max_bytes limit (overflow_policy refuse): new items were turned away");

    private final Pending droppedDiskFull = new Pending(LossReason.DISK_FULL,
            "disk almost full: the buffer was held at its size (overflow_policy drop_oldest): the oldest items"
                    + " were discarded");
    private final Pending refusedDiskFull = new Pending(LossReason.DISK_FULL,
            "disk almost full: the buffer was held at its size (overflow_policy refuse): new items were turned"
                    + " away");

    private final Pending writeFailedDiskFull = new Pending(LossReason.DISK_FULL,
            "the disk is full (No space left on device): the buffer could not store new items and they were"
                    + " refused");

    private long syncFailuresSeen;
    private long lastSyncCheck;
    private long lastSyncComplaint;

    ChannelLosses(String connection, EventPublisher events, Clock clock) {
        this.connection = connection;
        this.events = events;
        this.clock = clock;
    }

    /** What recovery found when the buffer opened: each finding logged, each loss published. */
    void recovered(RecoveryReport report) {
        for (RecoveryReport.Finding f : report.findings()) {
            boolean costly = f.recordsLost() > 0
                    || f.reason() == RecoveryReport.Reason.MISSING_SEGMENT
                    || f.reason() == RecoveryReport.Reason.CORRUPT_HEADER;
            if (!costly) {
                log.info("Channel {}: buffer recovery: {} ({}); nothing unacknowledged was lost", connection,
                        f.detail(), f.reason());
                continue;
            }
            String where = f.setAside().map(p -> "; a copy is in " + p).orElse("");
            log.error("Channel {}: buffer recovery lost data: {} ({}){}", connection, f.detail(), f.reason(), where);
            DataLoss loss = DataLoss.of(clock.instant(), "channel", connection, LossReason.BUFFER_DAMAGED,
                    f.recordsLost(), Math.max(0, f.bytesDiscarded()), f.detail() + " [" + f.file() + "]" + where);
            if (loss.items() == 0 && loss.bytes() == 0) {
                loss = DataLoss.of(loss.at(), "channel", connection, LossReason.BUFFER_DAMAGED, 0, 1, loss.detail());
            }
            events.lost(f.recordsLost() > 0 ? loss.withSequences(f.firstLost(), f.lastLost()) : loss);
        }
    }

    /** Damage a read stepped over. */
    void damaged(BufferDamage damage) {
        String where = damage.setAside().map(p -> "; a copy is in " + p).orElse("");
        if (damage.recordsLost() == 0) {
            log.warn("Channel {}: {}{}", connection, damage.detail(), where);
            return;
        }
        log.error("Channel {}: buffer damage lost {} items: {}{}", connection, damage.recordsLost(), damage.detail(),
                where);
        events.lost(DataLoss.of(clock.instant(), "channel", connection, LossReason.BUFFER_DAMAGED,
                damage.recordsLost(), damage.bytes(), damage.detail() + " [" + damage.file() + "]" + where)
                .withSequences(damage.firstLost(), damage.lastLost()));
    }

    void dropped(long items) {
        dropped.add(items, 0);
    }

    void refused(long items, long bytes) {
        refused.add(items, bytes);
    }

    void droppedDiskFull(long items) {
        droppedDiskFull.add(items, 0);
    }

    void refusedDiskFull(long items, long bytes) {
        refusedDiskFull.add(items, bytes);
    }

    /** Items a producer offered that the buffer could not store because the disk was full. */
    void writeFailedDiskFull(long items, long bytes) {
        writeFailedDiskFull.add(items, bytes);
    }

    /**
     * At most once a second: compares the buffer's failed-fsync count with the last one seen. A failed
     * fsync loses nothing yet (the records are in the page cache and the next round retries) but
     * means they would not survive a power loss: logged at ERROR, at most once a minute.
     */
    void checkSyncFailures(java.util.function.LongSupplier failures) {
        long now = clock.millis();
        synchronized (this) {
            if (now - lastSyncCheck < PUBLISH_EVERY_MILLIS) {
                return;
            }
            lastSyncCheck = now;
        }
        long total = failures.getAsLong();
        synchronized (this) {
            if (total <= syncFailuresSeen) {
                return;
            }
            long more = total - syncFailuresSeen;
            syncFailuresSeen = total;
            if (now - lastSyncComplaint < 60_000 && lastSyncComplaint != 0) {
                return;
            }
            lastSyncComplaint = now;
            log.error("Channel {}: {} fsync(s) of its buffer failed ({} since start); buffered items are kept and"
                    + " the next round retries, but until one succeeds they would not survive a power loss."
                    + " Check the disk and the data directory", connection, more, total);
        }
    }

    /** Publishes what was summed and not yet told. */
    void flush() {
        dropped.publish(true);
        refused.publish(true);
        droppedDiskFull.publish(true);
        refusedDiskFull.publish(true);
        writeFailedDiskFull.publish(true);
    }

    /** Items and bytes of one reason, summed until the next publication. */
    private final class Pending {
        private final LossReason reason;
        private final String detail;
        private long items;
        private long bytes;
        private long lastPublished;

        Pending(LossReason reason, String detail) {
            this.reason = reason;
            this.detail = detail;
        }

        void add(long moreItems, long moreBytes) {
            if (moreItems <= 0 && moreBytes <= 0) {
                return;
            }
            synchronized (this) {
                items += moreItems;
                bytes += moreBytes;
            }
            publish(false);
        }

        void publish(boolean now) {
            long publishItems;
            long publishBytes;
            synchronized (this) {
                long millis = clock.millis();
                if (items == 0 && bytes == 0 || !now && millis - lastPublished < PUBLISH_EVERY_MILLIS) {
                    return;
                }
                publishItems = items;
                publishBytes = bytes;
                items = 0;
                bytes = 0;
                lastPublished = millis;
            }
            events.lost(DataLoss.of(clock.instant(), "channel", connection, reason, publishItems, publishBytes,
                    detail));
        }
    }
}
