package io.qubiq.core.event;

import java.time.Instant;

/**
 * Data was lost at a connection for a reason nobody asked for (every {@link LossReason} but an
 * operator's action). Raised on the first loss of an episode and raised again with the running
 * count while losses go on; cleared once no loss of this connection and reason came for a quiet
 * period. The figures are in the loss ledger ({@code GET /api/v1/losses}).
 *
 * @param items the items lost in this episode so far
 * @param detail the latest loss's sentence for the operator
 */
public record DataLostAlarm(String connection, LossReason reason, boolean active, Instant at, long items,
                            String detail) implements AlarmEvent {

    @Override
    public String key() {
        return "data-lost/" + connection + "/" + reason.label();
    }

    @Override
    public String source() {
        return connection;
    }

    @Override
    public AlarmSeverity severity() {
        return AlarmSeverity.CRITICAL;
    }

    @Override
    public String message() {
        return active
                ? connection + " lost " + items + " item(s) (" + reason.label() + "): " + detail
                        + ". See Data integrity for when and how many"
                : connection + " lost no more data (" + reason.label() + ") for a while; " + items
                        + " item(s) were lost in that episode";
    }
}
