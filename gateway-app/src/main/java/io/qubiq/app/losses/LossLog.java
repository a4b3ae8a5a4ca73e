package io.qubiq.app.losses;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code qubiq.losses} log: a loss nobody asked for at ERROR, an operator's drop at INFO. So that
 * a loss storm cannot flood the log, the first loss of a component, connection and reason is logged at
 * once, and later ones at most once per interval as one line with their sum; {@link #tick} (once a
 * second) writes the sums that are due. Operator actions are rare and each gets its line.
 *
 * <p>Threading: {@link #note} from any thread; {@link #tick} from the recorder's flush thread.
 * Lines are written outside this object's lock.
 */
final class LossLog {

    private static final Logger log = LoggerFactory.getLogger("qubiq.losses");

    private record Key(String component, String connection, LossReason reason) {
    }

    private static final class Sum {
        long items;
        long bytes;
        long reports;
        String detail = "";
        long lastLineNanos;
    }

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final Map<Key, Sum> sums = new LinkedHashMap<>();

    LossLog(Duration interval, LongSupplier nanoClock) {
        this.intervalNanos = interval.toNanos();
        this.nanoClock = nanoClock;
    }

    /** Logs one report, as it is (an operator's) or summed with others of its kind. */
    void note(DataLoss loss) {
        if (loss.reason().operatorAction()) {
            line(loss);
            return;
        }
        Key key = new Key(loss.component(), loss.connection(), loss.reason());
        long now = nanoClock.getAsLong();
        synchronized (sums) {
            Sum sum = sums.get(key);
            if (sum != null && now - sum.lastLineNanos < intervalNanos) {
                sum.items += loss.items();
                sum.bytes += loss.bytes();
                sum.reports++;
                sum.detail = loss.detail();
                return;
            }
            Sum fresh = new Sum();
            fresh.lastLineNanos = now;
            sums.put(key, fresh);
        }
        line(loss);
    }

    /** Writes the sums whose interval has passed. */
    void tick() {
        long now = nanoClock.getAsLong();
        Map<Key, Sum> due = new LinkedHashMap<>();
        synchronized (sums) {
            for (Map.Entry<Key, Sum> entry : sums.entrySet()) {
                Sum sum = entry.getValue();
                if (sum.reports > 0 && now - sum.lastLineNanos >= intervalNanos) {
                    Sum copy = new Sum();
                    copy.items = sum.items;
                    copy.bytes = sum.bytes;
                    copy.reports = sum.reports;
                    copy.detail = sum.detail;
                    due.put(entry.getKey(), copy);
                    sum.items = 0;
                    sum.bytes = 0;
                    sum.reports = 0;
                    sum.lastLineNanos = now;
                }
            }
        }
        due.forEach((key, sum) -> log.error("Data lost: {} {} items ({} bytes) at {} {} in {} more reports; latest: {}",
                key.reason().label(), sum.items, sum.bytes, key.component(), key.connection(), sum.reports, sum.detail));
    }

    /** One line for one report; also used before the recorder is connected. */
    static void line(DataLoss loss) {
        if (loss.reason().operatorAction()) {
            log.info("Data dropped by {}: {} {} items ({} bytes) at {} {}: {}", loss.who().orElse("an operator"),
                    loss.reason().label(), loss.items(), loss.bytes(), loss.component(), loss.connection(),
                    loss.detail());
            return;
        }
        log.error("Data lost: {} {} items ({} bytes) at {} {}{}: {}", loss.reason().label(), loss.items(),
                loss.bytes(), loss.component(), loss.connection(), loss.tag().map(t -> " tag " + t).orElse(""),
                loss.detail());
    }
}
