package io.qubiq.console;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/openapi.json}: an OpenAPI 3.1 description generated from the endpoints as they
 * are registered, so it lists exactly the routes that exist, each with its permission
 * ({@code x-qubiq-permission}) and security requirement. Request and response bodies are described in
 * docs/api.md; here every answer is a JSON object or array, and every error {@code {"status", "error"}}.
 */
final class OpenApi {

    private static final Pattern PARAM = Pattern.compile("[{<]([a-zA-Z]+)[}>]");

    private OpenApi() {
    }

    static Map<String, Object> document(List<Endpoint> endpoints, String version) {
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
                "schemas", Map.of("Error", Map.of("type", "object", "required", List.of("status", "error"),
                        "properties", Map.of("status", Map.of("type", "integer"), "error", Map.of("type", "string"))))));
        Map<String, Map<String, Object>> paths = new LinkedHashMap<>();
        for (Endpoint endpoint : endpoints) {
            paths.computeIfAbsent(openApiPath(endpoint.path()), p -> new LinkedHashMap<>())
                    .put(endpoint.method().toLowerCase(Locale.ROOT), operation(endpoint));
        }
        doc.put("paths", paths);
        return doc;
    }

    private static Map<String, Object> operation(Endpoint endpoint) {
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
        Map<String, Object> responses = new LinkedHashMap<>();
        responses.put("200", Map.of("description", "OK (201 for a creation, 204 without a body)"));
        Map<String, Object> error = Map.of("description", "error", "content", Map.of("application/json",
                Map.of("schema", Map.of("$ref", "#/components/schemas/Error"))));
        responses.put("400", error);
        if (!endpoint.access().isPublic()) {
            responses.put("401", Map.of("description", "not signed in"));
            responses.put("403", Map.of("description", "lacks the permission, or the CSRF token is missing"));
        }
        op.put("responses", responses);
        return op;
    }

    /** Javalin's {@code {id}} and {@code <path>} both become OpenAPI's {@code {id}}. */
    static String openApiPath(String javalinPath) {
        return PARAM.matcher(javalinPath).replaceAll("{$1}");
    }
}
