package io.qubiq.app.audit;

import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.audit.AuditConfig;
import io.qubiq.audit.AuditForwarding;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.sql.SqlRow;
import java.util.Map;
import java.util.Optional;

/**
 * {@code audit.forward_to} resolved against the outbound connections: the connection's channel and the
 * rows of {@link AuditRows} for its kind. Only SQL and QuestDB connections take audit rows; the
 * configuration check ({@code AuditReferences}) refuses any other kind before the gateway is built.
 */
public final class AuditForwardTargets {

    private AuditForwardTargets() {
    }

    /** Whether entries can be forwarded to a connection whose items are {@code itemType}s: SQL or QuestDB rows. */
    public static boolean canForwardTo(Class<?> itemType) {
        return itemType == SqlRow.class || itemType == QuestDbRow.class;
    }

    /** The forward target the configuration names, if any. */
    public static Optional<AuditForwarding<?>> of(AuditConfig config, Map<String, OutboundConnection<?>> outbound) {
        return config.forwardTo().map(id -> target(outbound.get(id)));
    }

    private static AuditForwarding<?> target(OutboundConnection<?> connection) {
        Optional<AuditForwarding<?>> sql = connection.channelOf(SqlRow.class).map(c -> new AuditForwarding<>(c, AuditRows::sql));
        return sql.orElseGet(() -> new AuditForwarding<>(connection.channelOf(QuestDbRow.class).orElseThrow(),
                AuditRows::questDb));
    }
}
