package io.qubiq.sink.mongodb;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A short, Mongo-shell-like rendering of a document for the console's quarantine view:
 * {@code readings insert {_id: "a-1", tag: "L1/Speed", value: 1.5, at: ISODate("2026-01-01T00:00:00Z")}}
 * or {@code assets upsert by [asset] {asset: "P-101", state: "running"} (item a-7)}. Cut at
 * {@value #MAX_CHARS} characters. Stateless.
 */
final class DocumentPreview {

    static final int MAX_CHARS = 300;

    private DocumentPreview() {
    }

    static String of(MongoDocument item) {
        StringBuilder out = new StringBuilder(128);
        out.append(item.collection());
        if (item.mode() == MongoWriteMode.INSERT) {
            out.append(" insert {");
            boolean first = true;
            if (!item.fields().containsKey(MongoDocument.ID)) {
                out.append("_id: ");
                string(out, item.itemId());
                first = false;
            }
            fields(out, item.fields(), first);
            out.append('}');
            if (!item.keyedByItemId()) {
                out.append(" (item ").append(item.itemId()).append(')');
            }
        } else {
            out.append(" upsert by ").append(item.keyFields()).append(" {");
            fields(out, item.fields(), true);
            out.append("} (item ").append(item.itemId()).append(')');
        }
        if (out.length() > MAX_CHARS) {
            out.setLength(MAX_CHARS - 1);
            out.append('…');
        }
        return out.toString();
    }

    private static void fields(StringBuilder out, Map<String, Object> fields, boolean first) {
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            if (out.length() > MAX_CHARS) {
                return;
            }
            if (!first) {
                out.append(", ");
            }
            first = false;
            out.append(field.getKey()).append(": ");
            value(out, field.getValue());
        }
    }

    @SuppressWarnings("unchecked")
    private static void value(StringBuilder out, Object value) {
        if (value instanceof String s) {
            string(out, s);
        } else if (value instanceof Long l) {
            out.append("NumberLong(").append(l).append(')');
        } else if (value instanceof BigDecimal d) {
            out.append("NumberDecimal(\"").append(d.toPlainString()).append("\")");
        } else if (value instanceof Instant t) {
            out.append("ISODate(\"").append(t).append("\")");
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            fields(out, (Map<String, Object>) map, true);
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size() && out.length() <= MAX_CHARS; i++) {
                if (i > 0) {
                    out.append(", ");
                }
                value(out, list.get(i));
            }
            out.append(']');
        } else {
            out.append(value); // null, Integer, Double, Boolean
        }
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        int end = Math.min(s.length(), MAX_CHARS);
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
