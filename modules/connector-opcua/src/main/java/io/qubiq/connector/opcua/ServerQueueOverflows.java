package io.qubiq.connector.opcua;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.tag.TagPath;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Values the OPC UA server dropped before sending them: a server whose monitored item's queue fills
 * up between two publishes discards samples and sets the Overflow bit on the value after the gap
 * (status code info type DataValue, bit 0x80). Each flagged value stands for at least one lost
 * change of its tag; the exact number is the server's secret. This counts them on the delivery
 * threads (one bit test per value) and reports what accumulated once a second, on the connector's
 * thread: a WARN log line and a {@code device_queue_overflow} entry in the loss ledger, counting the
 * flagged values (a lower bound of what was lost) with one example tag.
 *
 * <p>Threading: {@link #inspect} from any thread; {@link #report} from one thread at a time.
 */
final class ServerQueueOverflows {

    private static final Logger LOG = LoggerFactory.getLogger(OpcUaConnector.class);
    private static final long INFO_TYPE_MASK = 0xC00;
    private static final long INFO_TYPE_DATA_VALUE = 0x400;
    private static final long OVERFLOW = 0x80;

    private final String connection;
    private final EventPublisher events;
    private final Clock clock;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong total = new AtomicLong();
    private volatile TagPath example;

    ServerQueueOverflows(String connection, EventPublisher events, Clock clock) {
        this.connection = connection;
        this.events = events;
        this.clock = clock;
    }

    /** True when the server set the Overflow bit on {@code value}: changes of {@code path} before it were dropped. */
    static boolean overflowed(DataValue value) {
        StatusCode code = value.getStatusCode();
        long bits = code == null ? 0 : code.getValue();
        return (bits & INFO_TYPE_MASK) == INFO_TYPE_DATA_VALUE && (bits & OVERFLOW) != 0;
    }

    /** Counts {@code value} if the server flagged it. */
    void inspect(TagPath path, DataValue value) {
        if (overflowed(value)) {
            pending.incrementAndGet();
            example = path;
        }
    }

    /** Flagged values since start. */
    long total() {
        return total.get();
    }

    /** Reports what was flagged since the last report, if anything. */
    void report() {
        long flagged = pending.getAndSet(0);
        if (flagged == 0) {
            return;
        }
        long since = total.addAndGet(flagged);
        String text = flagged + " values arrived flagged Overflow by the OPC UA server (for example of " + example
                + "): its queue for those items filled up between two publishes, so at least one change before each"
                + " was dropped on the server. Raise queue_size (or tag_defaults.queue_size), or sample less often";
        LOG.warn("OPC UA connection {}: {} ({} since start)", connection, text, since);
        events.lost(DataLoss.of(clock.instant(), "connector", connection, LossReason.DEVICE_QUEUE_OVERFLOW, flagged, 0,
                text));
    }
}
