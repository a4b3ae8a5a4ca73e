package io.qubiq.app.audit;

import io.qubiq.audit.AuditConfig;
import io.qubiq.audit.JournalEntry;
import io.qubiq.audit.LocalAuditStore;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.storeforward.ChannelException;
import io.qubiq.storeforward.ChannelFullException;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The audit channel's sink with {@code forward_to}: writes the batch to the local store, then hands
 * it as rows of {@value AuditConfig#TABLE} to the QuestDB connection's own channel (which buffers and
 * retries as for any of its writes). If that channel does not take them, the batch fails as transient
 * and the audit channel retries it: the local store skips the entries it already has (by id), so the
 * retry only forwards again.
 *
 * <p>Row: designated timestamp = the event's time; symbols {@code user}, {@code action}; columns
 * {@code entry_id} (long), {@code target}, {@code outcome}, {@code remote} (the {@code from} detail)
 * and {@code details} (a JSON object of all details).
 *
 * <p>Threading: called by the audit channel, one thread at a time.
 */
final class QuestDbForwardingSink implements Sink<JournalEntry> {

    private final LocalAuditStore local;
    private final StoreForwardChannel<QuestDbRow> forward;

    QuestDbForwardingSink(LocalAuditStore local, StoreForwardChannel<QuestDbRow> forward) {
        this.local = local;
        this.forward = forward;
    }

    @Override
    public String id() {
        return local.id();
    }

    @Override
    public void write(List<JournalEntry> batch) throws GatewayException {
        local.write(batch);
        List<QuestDbRow> rows = new ArrayList<>(batch.size());
        for (JournalEntry entry : batch) {
            rows.add(row(entry));
        }
        try {
            forward.submit(rows);
        } catch (ChannelFullException | ChannelException e) {
            throw new TransientException("audit entries are in the local journal but the channel of "
                    + forward.connection() + " did not take them: " + e.getMessage(), e);
        }
    }

    static QuestDbRow row(JournalEntry entry) {
        AuditEvent event = entry.event();
        return QuestDbRow.builder(AuditConfig.TABLE, event.at())
                .symbol("user", event.user())
                .symbol("action", event.action().name().toLowerCase(java.util.Locale.ROOT))
                .column("entry_id", entry.id())
                .column("target", event.target())
                .column("outcome", event.outcome())
                .column("remote", event.details().getOrDefault(AuditAction.DETAIL_FROM, ""))
                .column("details", json(event.details()))
                .build();
    }

    private static String json(Map<String, String> details) {
        StringBuilder out = new StringBuilder("{");
        details.forEach((key, value) -> {
            if (out.length() > 1) {
                out.append(',');
            }
            quote(out, key).append(':');
            quote(out, value);
        });
        return out.append('}').toString();
    }

    private static StringBuilder quote(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
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
