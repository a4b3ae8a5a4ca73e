package io.qubiq.connector.mqtt;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads one node of a JSON document by a simple path: field names separated by {@code .}, each
 * optionally followed by {@code [n]} array indexes, with an optional leading {@code $.}:
 * {@code $.data.value}, {@code data.value} and {@code readings[0].v} are paths. Field names with
 * dots, brackets, filters and wildcards are not supported. Immutable; thread-safe.
 */
final class JsonPathReader {

    /** One step: a field name, or an array index (name null). */
    private record Step(String field, int index) {
    }

    private final String path;
    private final List<Step> steps;

    JsonPathReader(String path) {
        this.path = path;
        this.steps = parse(path).orElseThrow(() -> new IllegalArgumentException(problem(path).orElse(path)));
    }

    String path() {
        return path;
    }

    /** The node at the path; empty when a field or element is missing or the node is JSON null. */
    Optional<JsonNode> read(JsonNode document) {
        JsonNode node = document;
        for (Step step : steps) {
            node = step.field() != null ? node.get(step.field()) : node.get(step.index());
            if (node == null) {
                return Optional.empty();
            }
        }
        return node.isNull() ? Optional.empty() : Optional.of(node);
    }

    /** Why {@code path} is not a path this reader understands, or empty. */
    static Optional<String> problem(String path) {
        return parse(path).isPresent() ? Optional.empty()
                : Optional.of("\"" + path + "\" is not a JSON path of the form $.field.sub or field.list[0].sub");
    }

    private static Optional<List<Step>> parse(String path) {
        String rest = path.startsWith("$.") ? path.substring(2) : path;
        if (rest.isEmpty()) {
            return Optional.empty();
        }
        List<Step> steps = new ArrayList<>();
        for (String part : rest.split("\\.", -1)) {
            int bracket = part.indexOf('[');
            String name = bracket < 0 ? part : part.substring(0, bracket);
            if (name.isEmpty() || name.contains("]") || name.contains("$")) {
                return Optional.empty();
            }
            steps.add(new Step(name, -1));
            String indexes = bracket < 0 ? "" : part.substring(bracket);
            while (!indexes.isEmpty()) {
                int close = indexes.indexOf(']');
                if (!indexes.startsWith("[") || close < 2) {
                    return Optional.empty();
                }
                try {
                    steps.add(new Step(null, Integer.parseInt(indexes.substring(1, close))));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
                indexes = indexes.substring(close + 1);
            }
        }
        return Optional.of(List.copyOf(steps));
    }
}
