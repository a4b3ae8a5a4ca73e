package io.qubiq.audit;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import io.qubiq.storeforward.ChannelException;
import io.qubiq.storeforward.ChannelFullException;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.ArrayList;
import java.util.List;

import java.util.function.Function;

/**
 * The audit channel's sink with {@code forward_to}: writes the batch to the local store, then hands
 * it, one row per entry, to the forward connection's own channel (which buffers and retries as for any
 * of its writes). If that channel does not take them, the batch fails as transient and the audit channel
 * retries it: the local store skips the entries it already has (by id), so the retry only forwards again.
 * The rows are made by the {@link AuditForwarding} the application chose for the connection's kind.
 *
 * <p>Threading: called by the audit channel, one thread at a time.
 *
 * @param <R> the forward connection's item type
 */
final class ForwardingSink<R> implements Sink<JournalEntry> {

    private final LocalAuditStore local;
    private final StoreForwardChannel<R> forward;
    private final Function<JournalEntry, R> rowOf;

    ForwardingSink(LocalAuditStore local, AuditForwarding<R> target) {
        this.local = local;
        this.forward = target.channel();
        this.rowOf = target.rowOf();
    }

    @Override
    public String id() {
        return local.id();
    }

    @Override
    public void write(List<JournalEntry> batch) throws GatewayException {
        local.write(batch);
        List<R> rows = new ArrayList<>(batch.size());
        for (JournalEntry entry : batch) {
            rows.add(rowOf.apply(entry));
        }
        try {
            forward.submit(rows);
        } catch (ChannelFullException | ChannelException e) {
            throw new TransientException("audit entries are in the local journal but the channel of "
                    + forward.connection() + " did not take them: " + e.getMessage(), e);
        }
    }

    @Override
    public ConnectionStatus probe() {
        return local.probe();
    }

    @Override
    public boolean idempotent() {
        return true;
    }

    @Override
    public void close() {
        local.close();
    }
}
