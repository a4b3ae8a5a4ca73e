package io.qubiq.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A request's JSON object body, read field by field with errors that name the field and show the
 * expected shape. Nothing is applied before the whole body has been read, so bad input changes nothing.
 */
final class JsonBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode node;
    private final String shape;

    private JsonBody(JsonNode node, String shape) {
        this.node = node;
        this.shape = shape;
    }

    /**
     * @param shape an example of the expected body, quoted in errors, such as {@code {"ids": [1, 2]}}
     * @throws RequestFailure.InvalidRequest when the body is not a JSON object
     */
    static JsonBody of(Context ctx, String shape) {
        JsonNode node;
        try {
            node = JSON.readTree(ctx.body());
        } catch (Exception e) {
            throw new RequestFailure.InvalidRequest("the body must be JSON like " + shape + ": " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw new RequestFailure.InvalidRequest("the body must be a JSON object like " + shape);
        }
        return new JsonBody(node, shape);
    }

    /**
     * A field of any JSON value as plain Java values (maps, lists, strings, numbers, booleans, null).
     *
     * @throws RequestFailure.InvalidRequest when the field is missing (null is a value)
     */
    Object anyValue(String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new RequestFailure.InvalidRequest("the body needs the field '" + field + "', like " + shape);
        }
        return JSON.convertValue(value, Object.class);
    }

    /** Whether the body has {@code field}, null or not. */
    boolean has(String field) {
        return node.has(field);
    }

    String text(String field) {
        return optionalText(field).orElseThrow(() -> new RequestFailure.InvalidRequest("\"" + field + "\" is missing: send " + shape));
    }

    Optional<String> optionalText(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new RequestFailure.InvalidRequest("\"" + field + "\" must be a string: send " + shape);
        }
        return Optional.of(value.textValue());
    }

    Optional<Boolean> optionalBoolean(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isBoolean()) {
            throw new RequestFailure.InvalidRequest("\"" + field + "\" must be true or false: send " + shape);
        }
        return Optional.of(value.booleanValue());
    }

    Optional<List<String>> optionalTextList(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isArray()) {
            throw new RequestFailure.InvalidRequest("\"" + field + "\" must be a list of strings: send " + shape);
        }
        List<String> out = new ArrayList<>();
        for (JsonNode element : value) {
            if (!element.isTextual()) {
                throw new RequestFailure.InvalidRequest("\"" + field + "\" must be a list of strings, found " + element);
            }
            out.add(element.textValue());
        }
        return Optional.of(out);
    }

    Optional<List<Long>> optionalLongList(String field, int max) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isArray()) {
            throw new RequestFailure.InvalidRequest("\"" + field + "\" must be a list of numbers: send " + shape);
        }
        if (value.size() > max) {
            throw new RequestFailure.InvalidRequest("\"" + field + "\" may list at most " + max + " entries, got " + value.size());
        }
        List<Long> out = new ArrayList<>();
        for (JsonNode element : value) {
            if (!element.isIntegralNumber() || !element.canConvertToLong()) {
                throw new RequestFailure.InvalidRequest("\"" + field + "\" must be a list of whole numbers, found " + element);
            }
            out.add(element.longValue());
        }
        return Optional.of(out);
    }
}
