package io.qubiq.app.config;

import io.qubiq.audit.AuditConfig;
import io.qubiq.core.config.ConfigChecked.Violation;
import java.util.List;
import java.util.Map;

/**
 * The audit section's reference to an outbound connection: {@code audit.forward_to} must name a
 * QuestDB or SQL connection under {@code outbound}.
 */
final class AuditReferences {

    private AuditReferences() {
    }

    static List<Violation> check(AuditConfig audit, Map<String, OutboundConfig> outbound) {
        if (audit.forwardTo().isEmpty()) {
            return List.of();
        }
        String id = audit.forwardTo().get();
        OutboundConfig connection = outbound.get(id);
        String key = "audit.forward_to";
        if (connection == null) {
            return List.of(new Violation(key, "no outbound connection \"" + id + "\"" + (outbound.isEmpty() ? ""
                    : "; the outbound connections are " + String.join(", ", outbound.keySet()))));
        }
        return switch (connection.kind()) {
            case "questdb", "sql" -> List.of();
            default -> List.of(new Violation(key, "connection " + id + " is a " + connection.kind()
                    + " connection; the audit journal can be forwarded to a questdb or sql connection only"));
        };
    }
}
