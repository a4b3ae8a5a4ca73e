package io.qubiq.config;

import io.qubiq.config.ConfigType.EnumType;
import io.qubiq.config.ConfigType.ListType;
import io.qubiq.config.ConfigType.MapType;
import io.qubiq.config.ConfigType.OptionalType;
import io.qubiq.config.ConfigType.RecordType;
import io.qubiq.config.ConfigType.ScalarType;
import io.qubiq.config.ConfigType.VariantType;
import io.qubiq.core.config.SelectedBySection;
import io.qubiq.core.config.Variant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a bound configuration back as YAML, for a "print effective configuration" command and for
 * logs: every key with its value after defaults and expansion, in declaration order, and
 * {@code "***"} for each {@code @Secret} key. Records' own {@code toString} prints secrets, so log
 * this instead. The text loads back to the same configuration (secrets aside): strings are
 * double-quoted and a literal {@code ${} is written {@code $${}. Empty optional keys are left out.
 * Stateless; safe to call from any thread.
 */
public final class EffectiveConfig {

    private static final String MASK = "\"***\"";

    private EffectiveConfig() {
    }

    public static String toYaml(Record root) {
        StringBuilder out = new StringBuilder();
        writeRecord(root, 0, out);
        return out.toString();
    }

    private static void writeRecord(Object record, int indent, StringBuilder out) {
        Variant variant = record.getClass().getAnnotation(Variant.class);
        boolean bySection = Arrays.stream(record.getClass().getInterfaces())
                .anyMatch(i -> i.isAnnotationPresent(SelectedBySection.class));
        if (variant != null && !bySection) {
            line(indent, ConfigType.VARIANT_KEY + ": " + quote(variant.value()), out);
        }
        RecordShape.of(record.getClass()).forEachKey(record, (key, value) -> writeKey(key, value, indent, out));
    }

    private static void writeKey(KeySpec key, Object value, int indent, StringBuilder out) {
        ConfigType type = key.type();
        if (type instanceof OptionalType optional) {
            if (((Optional<?>) value).isEmpty()) {
                return;
            }
            value = ((Optional<?>) value).get();
            type = optional.element();
        }
        if (key.secret()) {
            line(indent, key.key() + ": " + MASK, out);
        } else {
            writeEntry(key.key(), value, type, indent, out);
        }
    }

    private static void writeEntry(String key, Object value, ConfigType type, int indent, StringBuilder out) {
        if (type instanceof RecordType || type instanceof VariantType) {
            line(indent, key + ":", out);
            writeRecord(value, indent + 2, out);
        } else if (type instanceof ListType list && !((List<?>) value).isEmpty()) {
            line(indent, key + ":", out);
            for (Object item : (List<?>) value) {
                StringBuilder itemText = new StringBuilder();
                writeEntry("item", item, list.element(), 0, itemText);
                writeItem(itemText.toString(), indent + 2, out);
            }
        } else if (type instanceof MapType map && !((Map<?, ?>) value).isEmpty()) {
            line(indent, key + ":", out);
            ((Map<?, ?>) value).forEach((name, v) -> writeEntry(quote((String) name), v, map.value(), indent + 2, out));
        } else {
            line(indent, key + ": " + scalar(value, type), out);
        }
    }

    /** Turns "item: x" or "item:\n  a: 1\n  b: 2" into a list item at {@code indent}. */
    private static void writeItem(String entry, int indent, StringBuilder out) {
        if (entry.startsWith("item: ")) {
            line(indent, "- " + entry.substring("item: ".length()).stripTrailing(), out);
            return;
        }
        String[] lines = entry.substring(entry.indexOf('\n') + 1).split("\n");
        for (int i = 0; i < lines.length; i++) {
            line(indent, (i == 0 ? "- " : "  ") + lines[i].substring(2), out);
        }
    }

    private static String scalar(Object value, ConfigType type) {
        if (type instanceof ListType) {
            return "[]";
        }
        if (type instanceof MapType) {
            return "{}";
        }
        if (type instanceof EnumType) {
            return KeyNames.enumValue((Enum<?>) value);
        }
        return switch (((ScalarType) type).kind()) {
            case STRING, PATH -> quote(value.toString());
            default -> value.toString();
        };
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.replace("${", "$${").toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }

    private static void line(int indent, String text, StringBuilder out) {
        out.append(" ".repeat(indent)).append(text).append('\n');
    }
}
