package io.qubiq.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.qubiq.auth.Permission;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The configuration over the API (issue 22, read and validate):
 * <ul>
 *   <li>{@code GET /api/v1/config} (View connections): the running configuration, secrets masked, the
 *       keys taken from the environment, and its revision;</li>
 *   <li>{@code GET /api/v1/config/schema} (View connections): its JSON Schema;</li>
 *   <li>{@code POST /api/v1/config/validate} (Manage configuration): a whole configuration as YAML
 *       ({@code application/yaml}, {@code text/yaml}, {@code text/plain}) or JSON ({@code application/json})
 *       in the body; answers every problem, the diff against the running configuration and what would
 *       restart. Nothing is applied. A body that is empty, not JSON though sent as JSON, or not YAML at all
 *       is refused (400).</li>
 * </ul>
 */
public final class ConfigRoutes implements ApiRoutes {

    static final String CANDIDATE = "request body";
    private static final Set<String> YAML_TYPES = Set.of("application/yaml", "application/x-yaml", "text/yaml",
            "text/x-yaml", "text/plain");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConfigAccess config;

    public ConfigRoutes(ConfigAccess config) {
        this.config = config;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/config", Access.to(Permission.VIEW_CONNECTIONS),
                "The running configuration: every key with defaults filled in, secrets masked, keys from the"
                        + " environment, revision",
                Reply.json(ConfigAccess.Running.class), ctx -> config.running());
        api.get("/api/v1/config/schema", Access.to(Permission.VIEW_CONNECTIONS),
                "JSON Schema (draft 2020-12) of the configuration, generated from its declarations",
                Reply.json(Map.class), ctx -> config.schema());
        api.post("/api/v1/config/validate", Access.to(Permission.MANAGE_CONFIGURATION),
                "Dry run of a whole configuration (YAML or JSON body): every problem, the diff against the running"
                        + " configuration, what would restart; changes nothing",
                Reply.json(ConfigAccess.Validation.class).failing(RequestFailure.InvalidRequest.class),
                ctx -> config.validate(candidate(ctx), CANDIDATE));
    }

    /** The body as YAML text: JSON is checked to be JSON (JSON is YAML, so it is passed on as it is). */
    static String candidate(Context ctx) {
        String body = ctx.body();
        if (body.isBlank()) {
            throw new RequestFailure.InvalidRequest("the body is empty: send the whole configuration as YAML"
                    + " (Content-Type: application/yaml) or JSON (Content-Type: application/json)");
        }
        String type = ctx.contentType() == null ? "" : ctx.contentType().split(";")[0].strip().toLowerCase(Locale.ROOT);
        if (type.equals("application/json")) {
            JsonNode node;
            try {
                node = JSON.readTree(body);
            } catch (JsonProcessingException e) {
                throw new RequestFailure.InvalidRequest("the body is not JSON (sent as application/json): "
                        + e.getOriginalMessage());
            }
            if (!node.isObject()) {
                throw new RequestFailure.InvalidRequest("the body must be a JSON object: the whole configuration");
            }
            // tabs are JSON whitespace but not YAML indentation: pass such a document on in one line
            return body.indexOf('\t') >= 0 ? node.toString() : body;
        }
        if (!type.isEmpty() && !YAML_TYPES.contains(type)) {
            throw new RequestFailure.InvalidRequest("send the configuration as application/yaml, text/plain or"
                    + " application/json, not " + type);
        }
        return body;
    }
}
