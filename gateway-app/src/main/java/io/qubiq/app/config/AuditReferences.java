package io.qubiq.app.config;

import io.qubiq.app.audit.AuditForwardTargets;
import io.qubiq.app.outbound.OutboundKinds;
import io.qubiq.audit.AuditConfig;
import io.qubiq.core.config.ConfigChecked.Violation;
import io.qubiq.pipeline.OutboundKind;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The audit section's reference to an outbound connection: {@code audit.forward_to} must name a
 * connection under {@code outbound} whose kind carries rows the journal can write (QuestDB or SQL).
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
        OutboundKind<?, ?, ?> kind = OutboundKinds.of(connection);
        if (AuditForwardTargets.canForwardTo(kind.itemType())) {
            return List.of();
        }
        String accepted = OutboundKinds.all().stream().filter(k -> AuditForwardTargets.canForwardTo(k.itemType()))
                .map(OutboundKind::name).collect(Collectors.joining(" or "));
        return List.of(new Violation(key, "connection " + id + " is a " + kind.name()
                + " connection; the audit journal can be forwarded to a " + accepted + " connection only"));
    }
}
