package io.qubiq.config.edit;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the editor writes new values: block style, two spaces per level, strings plain where the
 * loader would read them back unchanged and double-quoted otherwise, {@code ${} written as the loader's
 * escape {@code $${} (a value put through the editor is a literal, never an environment reference; a
 * {@link Reference} is the one exception).
 * Empty sections and lists are {@code {}} and {@code []}. Stateless.
 */
final class YamlRendering {

    private static final Pattern LOOKS_TYPED = Pattern.compile(
            "(?i)[-+]?(\\.?[0-9].*|\\.inf|\\.nan)|y|n|yes|no|on|off|true|false|null|~");
    private static final String INDICATORS = "-?:,[]{}#&*!|>'\"%@`";

    private YamlRendering() {
    }

    static boolean isCollection(Object value) {
        return value instanceof Map<?, ?> || value instanceof List<?>;
    }

    /** True when {@code value} is written on lines of its own below its key (a non-empty section or list). */
    static boolean isBlock(Object value) {
        return value instanceof Map<?, ?> map && !map.isEmpty() || value instanceof List<?> list && !list.isEmpty();
    }

    /** A scalar, or an empty collection, as it is written after {@code key: }. */
    static String inline(Object value) {
        if (value instanceof Map<?, ?> map && map.isEmpty()) {
            return "{}";
        }
        if (value instanceof List<?> list && list.isEmpty()) {
            return "[]";
        }
        if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            return value.toString();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("a configuration value must be a finite number, not " + value);
            }
            String text = BigDecimal.valueOf(d).toPlainString();
            return text.contains(".") ? text : text + ".0";
        }
        if (value instanceof String text) {
            return string(text.replace("${", "$${"));
        }
        if (value instanceof Reference reference) {
            return quoted(reference.text()); // quoted: a flow section's braces and commas cannot end it
        }
        throw new IllegalArgumentException("cannot write a " + (value == null ? "null" : value.getClass().getSimpleName())
                + " into the configuration file");
    }

    /**
     * A value in flow style, for inside {@code {...}} or {@code [...]}: sections and lists nested as
     * {@code {k: v}} and {@code [a, b]}; strings quoted where a comma or bracket would end them.
     */
    static String flow(Object value) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            StringBuilder out = new StringBuilder("{");
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (out.length() > 1) {
                    out.append(", ");
                }
                out.append(key(String.valueOf(entry.getKey()))).append(": ").append(flow(entry.getValue()));
            }
            return out.append('}').toString();
        }
        if (value instanceof List<?> list && !list.isEmpty()) {
            StringBuilder out = new StringBuilder("[");
            for (Object item : list) {
                if (out.length() > 1) {
                    out.append(", ");
                }
                out.append(flow(item));
            }
            return out.append(']').toString();
        }
        if (value instanceof String text && text.chars().anyMatch(c -> ",[]{}".indexOf(c) >= 0)) {
            return quoted(text.replace("${", "$${"));
        }
        if (value instanceof Reference reference) {
            return quoted(reference.text());
        }
        return inline(value);
    }

    /** A key as written before its colon. */
    static String key(String key) {
        return string(key);
    }

    private static String string(String text) {
        return plainIsSafe(text) ? text : quoted(text);
    }

    private static boolean plainIsSafe(String text) {
        if (text.isEmpty() || !text.strip().equals(text) || LOOKS_TYPED.matcher(text).matches()) {
            return false;
        }
        if (INDICATORS.indexOf(text.charAt(0)) >= 0 || text.endsWith(":")) {
            return false;
        }
        if (text.contains(": ") || text.contains(" #") || text.contains("\t")) {
            return false;
        }
        return text.chars().allMatch(c -> c >= 0x20 && c != 0x7f);
    }

    private static String quoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        text.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.append('"').toString();
    }

    /**
     * A non-empty section or list in block style, every line indented by {@code indent} spaces, no
     * trailing newline.
     */
    static String block(Object value, int indent) {
        StringBuilder out = new StringBuilder();
        String pad = " ".repeat(indent);
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!out.isEmpty()) {
                    out.append('\n');
                }
                out.append(entry(String.valueOf(entry.getKey()), entry.getValue(), indent));
            }
        } else if (value instanceof List<?> list) {
            for (Object item : list) {
                if (!out.isEmpty()) {
                    out.append('\n');
                }
                if (isBlock(item)) {
                    // the item's first line goes on the dash's line
                    out.append(pad).append("- ").append(block(item, indent + 2).substring(indent + 2));
                } else {
                    out.append(pad).append("- ").append(inline(item));
                }
            }
        } else {
            throw new IllegalArgumentException("not a section or list: " + value);
        }
        return out.toString();
    }

    /** {@code key: value} (or {@code key:} and the block below it), indented by {@code indent}. */
    static String entry(String key, Object value, int indent) {
        String head = " ".repeat(indent) + key(key) + ":";
        return isBlock(value) ? head + "\n" + block(value, indent + 2) : head + " " + inline(value);
    }
}
