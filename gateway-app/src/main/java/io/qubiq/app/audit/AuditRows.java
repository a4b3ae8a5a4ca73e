package io.qubiq.app.audit;

import io.qubiq.audit.AuditConfig;
import io.qubiq.audit.JournalEntry;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.sql.SqlRow;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An audit entry as a row of {@value AuditConfig#TABLE} in a forward destination.
 * <ul>
 *   <li>QuestDB: designated timestamp = the event's time; symbols {@code user}, {@code action}; columns
 *       {@code entry_id} (long), {@code target}, {@code outcome}, {@code remote} (the {@code from} detail)
 *       and {@code details} (a JSON object of all details). QuestDB creates the table with the first row.</li>
 *   <li>SQL: {@link #SQL_STATEMENT} into a table the operator creates ({@link #SQL_TABLE} in
 *       docs/audit.md); {@code ON CONFLICT (entry_id) DO NOTHING} makes a replay store nothing twice. A
 *       missing table is a permanent error: the rows wait in that connection's quarantine to be retried
 *       once it exists.</li>
 * </ul>
 */
final class AuditRows {

    static final String SQL_TABLE = "CREATE TABLE qubiq_audit (entry_id bigint PRIMARY KEY, at timestamptz NOT NULL,"
            + " user_name text NOT NULL, action text NOT NULL, target text NOT NULL, outcome text NOT NULL,"
            + " remote text NOT NULL, details text NOT NULL)";
    static final String SQL_STATEMENT = "INSERT INTO " + AuditConfig.TABLE
            + " (entry_id, at, user_name, action, target, outcome, remote, details)"
            + " VALUES (:entry_id, :at, :user_name, :action, :target, :outcome, :remote, :details)"
            + " ON CONFLICT (entry_id) DO NOTHING";

    private AuditRows() {
    }

    static QuestDbRow questDb(JournalEntry entry) {
        AuditEvent event = entry.event();
        return QuestDbRow.builder(AuditConfig.TABLE, event.at())
                .symbol("user", event.user())
                .symbol("action", action(event))
                .column("entry_id", entry.id())
                .column("target", event.target())
                .column("outcome", event.outcome())
                .column("remote", remote(event))
                .column("details", json(event.details()))
                .build();
    }

    static SqlRow sql(JournalEntry entry) {
        AuditEvent event = entry.event();
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("entry_id", entry.id());
        parameters.put("at", event.at());
        parameters.put("user_name", event.user());
        parameters.put("action", action(event));
        parameters.put("target", event.target());
        parameters.put("outcome", event.outcome());
        parameters.put("remote", remote(event));
        parameters.put("details", json(event.details()));
        return new SqlRow("audit-" + entry.id(), SQL_STATEMENT, parameters);
    }

    private static String action(AuditEvent event) {
        return event.action().name().toLowerCase(Locale.ROOT);
    }

    private static String remote(AuditEvent event) {
        return event.details().getOrDefault(AuditAction.DETAIL_FROM, "");
    }

    static String json(Map<String, String> details) {
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
}
