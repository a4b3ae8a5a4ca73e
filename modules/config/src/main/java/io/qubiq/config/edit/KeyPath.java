package io.qubiq.config.edit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a value sits in a configuration file, written as the loader writes key paths in its problems:
 * mapping keys joined by dots, sequence items as {@code [index]} ({@code devices.plc1.opcua.tags[3].node_id}).
 * A key that contains a dot, a bracket or spaces is written in double quotes
 * ({@code outbound."db.main".sql}). Segments are {@link String} keys and {@link Integer} indexes.
 * Immutable.
 */
public record KeyPath(List<Object> segments) {

    public KeyPath {
        segments = List.copyOf(segments);
        for (Object segment : segments) {
            if (!(segment instanceof String) && !(segment instanceof Integer)) {
                throw new IllegalArgumentException("a key path segment is a key or an index, not " + segment);
            }
        }
    }

    /** The path of {@code text}, e.g. {@code outbound.db.store_and_forward.max_bytes}. */
    public static KeyPath parse(String text) {
        Objects.requireNonNull(text, "text");
        List<Object> segments = new ArrayList<>();
        int i = 0;
        boolean expectKey = true;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    throw invalid(text, "an index has no closing ]");
                }
                try {
                    segments.add(Integer.parseInt(text.substring(i + 1, close)));
                } catch (NumberFormatException e) {
                    throw invalid(text, "an index must be a whole number");
                }
                i = close + 1;
                expectKey = false;
            } else if (c == '.') {
                if (expectKey) {
                    throw invalid(text, "an empty key");
                }
                i++;
                expectKey = true;
            } else if (c == '"') {
                int close = text.indexOf('"', i + 1);
                if (close < 0) {
                    throw invalid(text, "a quoted key has no closing quote");
                }
                segments.add(text.substring(i + 1, close));
                i = close + 1;
                expectKey = false;
            } else {
                int end = i;
                while (end < text.length() && text.charAt(end) != '.' && text.charAt(end) != '[') {
                    end++;
                }
                segments.add(text.substring(i, end));
                i = end;
                expectKey = false;
            }
        }
        if (segments.isEmpty() || expectKey) {
            throw invalid(text, "it is empty or ends with a dot");
        }
        return new KeyPath(segments);
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException("'" + text + "' is not a key path: " + why);
    }

    /** The path one level up; the root's parent is the root. */
    public KeyPath parent() {
        return new KeyPath(segments.isEmpty() ? List.of() : segments.subList(0, segments.size() - 1));
    }

    /** The last segment. */
    public Object last() {
        return segments.get(segments.size() - 1);
    }

    public KeyPath child(Object segment) {
        List<Object> longer = new ArrayList<>(segments);
        longer.add(segment);
        return new KeyPath(longer);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Object segment : segments) {
            if (segment instanceof Integer index) {
                text.append('[').append(index).append(']');
            } else {
                String key = (String) segment;
                if (!text.isEmpty()) {
                    text.append('.');
                }
                boolean plain = !key.isEmpty() && key.chars().noneMatch(ch -> ch == '.' || ch == '[' || ch == ']'
                        || ch == '"' || Character.isWhitespace(ch));
                text.append(plain ? key : '"' + key + '"');
            }
        }
        return text.toString();
    }
}
