package io.qubiq.app.losses;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.DataLostAlarm;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The {@link DataLostAlarm}s: one episode per connection and reason. A loss nobody asked for opens
 * an episode; {@link #tick} (once a second) raises its alarm with the running count, raises it again
 * with the new count at most once per {@code reraiseInterval} while losses go on, and clears it once
 * no loss came for {@code quietPeriod}. Operator actions never raise one: they are in the ledger
 * and the audit journal.
 *
 * <p>Threading: {@link #note} from any thread; {@link #tick} from the recorder's flush thread.
 * Alarms are published outside this object's lock.
 */
final class LossAlarms {

    private final EventPublisher alarms;
    private final Clock clock;
    private final LongSupplier nanoClock;
    private final long quietNanos;
    private final long reraiseNanos;
    private final Map<String, Episode> episodes = new LinkedHashMap<>();

    private static final class Episode {
        final String connection;
        final LossReason reason;
        long items;
        String detail;
        long lastLossNanos;
        long lastRaiseNanos;
        boolean raised;
        boolean changed;

        Episode(String connection, LossReason reason) {
            this.connection = connection;
            this.reason = reason;
        }
    }

    LossAlarms(EventPublisher alarms, Clock clock, LongSupplier nanoClock, Duration quietPeriod,
               Duration reraiseInterval) {
        this.alarms = alarms;
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.quietNanos = quietPeriod.toNanos();
        this.reraiseNanos = reraiseInterval.toNanos();
    }

    /** Counts a loss into its episode; the alarm follows at the next {@link #tick}. */
    void note(DataLoss loss) {
        if (loss.reason().operatorAction()) {
            return;
        }
        synchronized (episodes) {
            Episode episode = episodes.computeIfAbsent(loss.connection() + "\u0000" + loss.reason().label(),
                    k -> new Episode(loss.connection(), loss.reason()));
            episode.items += loss.items();
            episode.detail = loss.detail();
            episode.lastLossNanos = nanoClock.getAsLong();
            episode.changed = true;
        }
    }

    /** Raises, updates and clears alarms as their episodes call for. */
    void tick() {
        long now = nanoClock.getAsLong();
        java.util.List<DataLostAlarm> due = new java.util.ArrayList<>();
        synchronized (episodes) {
            Iterator<Episode> it = episodes.values().iterator();
            while (it.hasNext()) {
                Episode e = it.next();
                if (e.changed && (!e.raised || now - e.lastRaiseNanos >= reraiseNanos)) {
                    due.add(new DataLostAlarm(e.connection, e.reason, true, clock.instant(), e.items, e.detail));
                    e.raised = true;
                    e.changed = false;
                    e.lastRaiseNanos = now;
                } else if (now - e.lastLossNanos >= quietNanos) {
                    due.add(new DataLostAlarm(e.connection, e.reason, false, clock.instant(), e.items, e.detail));
                    it.remove();
                }
            }
        }
        due.forEach(alarms::alarm);
    }
}
