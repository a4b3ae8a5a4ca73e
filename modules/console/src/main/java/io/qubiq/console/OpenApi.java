package io.qubiq.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/openapi.json}: an OpenAPI 3.1 description generated from the endpoints as they
 * are registered, so it lists exactly the routes that exist, each with its permission
 * ({@code x-qubiq-permission}), security requirement and {@link Reply}: the success body's schema,
 * generated from the record the handler answers with ({@link JsonSchemas}), and one response per
 * error status it can answer (the {@link RequestFailure} kinds it declares, mapped by {@link ApiError},
 * and the request guard's), each with the error body {@code {"status", "error"}}. Request bodies are
 * described in docs/api.md.
 */
final class OpenApi {

    private static final Pattern PARAM = Pattern.compile("[{<]([a-zA-Z]+)[}>]");

    private OpenApi() {
    }

    /**
     * @throws IllegalArgumentException when an endpoint answers with a type {@link JsonSchemas} cannot describe
     */
    static Map<String, Object> document(List<Endpoint> endpoints, String version) {
        JsonSchemas schemas = new JsonSchemas();
        Map<String, Map<String, Object>> paths = new LinkedHashMap<>();
        for (Endpoint endpoint : endpoints) {
            paths.computeIfAbsent(openApiPath(endpoint.path()), p -> new LinkedHashMap<>())
                    .put(endpoint.method().toLowerCase(Locale.ROOT), operation(endpoint, schemas));
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("openapi", "3.1.0");
        doc.put("info", Map.of("title", "Qubiq gateway API", "version", version,
                "description", "JSON over HTTP. Sign in with POST /api/v1/session (cookie qubiq_session; send the"
                        + " csrfToken as X-CSRF-Token on POST, PUT and DELETE) or send an API token as"
                        + " Authorization: Bearer qbq_.... See docs/api.md."));
        doc.put("components", Map.of(
                "securitySchemes", Map.of(
                        "session", Map.of("type", "apiKey", "in", "cookie", "name", RequestGuard.SESSION_COOKIE),
                        "bearer", Map.of("type", "http", "scheme", "bearer")),
                "schemas", schemas.components()));
        doc.put("paths", paths);
        return doc;
    }

    private static Map<String, Object> operation(Endpoint endpoint, JsonSchemas schemas) {
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("summary", endpoint.summary());
        op.put("x-qubiq-permission", endpoint.access().name());
        List<Map<String, Object>> parameters = new ArrayList<>();
        Matcher m = PARAM.matcher(endpoint.path());
        while (m.find()) {
            parameters.add(Map.of("name", m.group(1), "in", "path", "required", true, "schema", Map.of("type", "string")));
        }
        if (!parameters.isEmpty()) {
            op.put("parameters", parameters);
        }
        if (endpoint.access().isPublic()) {
            op.put("security", List.of());
        } else {
            op.put("security", List.of(Map.of("session", List.of()), Map.of("bearer", List.of())));
        }
        if (endpoint.changesState()) {
            op.put("requestBody", Map.of("required", false, "content", Map.of("application/json",
                    Map.of("schema", Map.of("type", "object")))));
        }
        op.put("responses", responses(endpoint, schemas));
        return op;
    }

    private static Map<String, Object> responses(Endpoint endpoint, JsonSchemas schemas) {
        Reply<?> reply = endpoint.reply();
        Map<String, Object> responses = new TreeMap<>();
        Map<String, Object> success = new LinkedHashMap<>();
        success.put("description", switch (reply.status()) {
            case 201 -> "Created";
            case 204 -> "No content";
            default -> "OK";
        });
        reply.body().ifPresent(type -> success.put("content", Map.of(reply.mediaType(),
                Map.of("schema", schemas.of(type)))));
        responses.put(Integer.toString(reply.status()), success);
        Map<Integer, String> errors = new TreeMap<>();
        for (Class<? extends RequestFailure> kind : reply.failures()) {
            errors.merge(ApiError.statusOf(kind), words(kind.getSimpleName()), (a, b) -> a + "; " + b);
        }
        if (endpoint.access().isPublic() && endpoint.changesState()) {
            errors.merge(415, "not sent as application/json", (a, b) -> a + "; " + b);
        }
        if (!endpoint.access().isPublic()) {
            errors.merge(401, "not signed in", (a, b) -> a + "; " + b);
            errors.merge(403, "lacks the permission, or the CSRF token is missing", (a, b) -> a + "; " + b);
            errors.merge(503, "the user or token store is damaged", (a, b) -> a + "; " + b);
        }
        errors.merge(500, "internal error (details in the gateway log)", (a, b) -> a + "; " + b);
        Map<Integer, Optional<Class<?>>> bodies = new TreeMap<>();
        reply.otherErrors().forEach((status, other) -> {
            errors.merge(status, other.description(), (a, b) -> a + "; " + b);
            bodies.put(status, other.body());
        });
        Map<String, Object> errorBody = schemas.of(ApiError.Body.class);
        errors.forEach((status, description) -> {
            Map<String, Object> schema = bodies.getOrDefault(status, Optional.empty())
                    .<Map<String, Object>>map(schemas::of).orElse(errorBody);
            responses.put(Integer.toString(status), Map.of("description", description,
                    "content", Map.of("application/json", Map.of("schema", schema))));
        });
        return responses;
    }

    /** {@code NotFound} as {@code not found}. */
    private static String words(String camelCase) {
        return camelCase.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    /** Javalin's {@code {id}} and {@code <path>} both become OpenAPI's {@code {id}}. */
    static String openApiPath(String javalinPath) {
        return PARAM.matcher(javalinPath).replaceAll("{$1}");
    }
}
