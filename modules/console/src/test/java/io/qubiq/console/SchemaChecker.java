package io.qubiq.console;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks a JSON value against the subset of JSON Schema that {@link JsonSchemas} emits: {@code type}
 * (one name or a list), {@code properties}, {@code required}, {@code additionalProperties} (false or a
 * schema), {@code items}, {@code enum}, {@code anyOf} and {@code $ref} into the document's
 * {@code components/schemas}. Answers every violation with its JSON path, so a failing test says where.
 */
final class SchemaChecker {

    private final JsonNode schemas;

    /** @param document the OpenAPI document, whose {@code components/schemas} the references point into */
    SchemaChecker(JsonNode document) {
        this.schemas = document.path("components").path("schemas");
    }

    List<String> violations(JsonNode value, JsonNode schema) {
        List<String> out = new ArrayList<>();
        check(value, schema, "$", out);
        return out;
    }

    private void check(JsonNode value, JsonNode schema, String at, List<String> out) {
        if (schema.has("$ref")) {
            String name = schema.get("$ref").textValue().substring(JsonSchemas.REF_PREFIX.length());
            JsonNode target = schemas.get(name);
            if (target == null) {
                out.add(at + ": unknown $ref " + name);
                return;
            }
            check(value, target, at, out);
            return;
        }
        if (schema.has("anyOf")) {
            for (JsonNode option : schema.get("anyOf")) {
                if (violations(value, option).isEmpty()) {
                    return;
                }
            }
            out.add(at + ": matches none of " + schema.get("anyOf"));
            return;
        }
        if (schema.has("type") && !typeMatches(value, schema.get("type"))) {
            out.add(at + ": " + kind(value) + " where " + schema.get("type") + " was expected");
            return;
        }
        if (schema.has("enum") && !contains(schema.get("enum"), value)) {
            out.add(at + ": " + value + " is not one of " + schema.get("enum"));
        }
        if (value.isObject()) {
            JsonNode properties = schema.path("properties");
            for (JsonNode required : schema.path("required")) {
                if (!value.has(required.textValue())) {
                    out.add(at + ": required property \"" + required.textValue() + "\" is missing");
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String path = at + "." + field.getKey();
                if (properties.has(field.getKey())) {
                    check(field.getValue(), properties.get(field.getKey()), path, out);
                } else if (schema.has("additionalProperties")) {
                    JsonNode additional = schema.get("additionalProperties");
                    if (additional.isBoolean() && !additional.booleanValue()) {
                        out.add(path + ": property not in the schema");
                    } else if (additional.isObject()) {
                        check(field.getValue(), additional, path, out);
                    }
                }
            }
        }
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                check(value.get(i), schema.get("items"), at + "[" + i + "]", out);
            }
        }
    }

    private static boolean typeMatches(JsonNode value, JsonNode type) {
        if (type.isArray()) {
            for (JsonNode one : type) {
                if (typeMatches(value, one)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.textValue()) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "null" -> value.isNull();
            default -> throw new IllegalArgumentException("not a JSON Schema type: " + type);
        };
    }

    private static boolean contains(JsonNode values, JsonNode value) {
        for (JsonNode one : values) {
            if (one.equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static String kind(JsonNode value) {
        return value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
