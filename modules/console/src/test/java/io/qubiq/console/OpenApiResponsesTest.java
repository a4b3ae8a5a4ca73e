package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.http.JsonSchemaChecker;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The OpenAPI description's responses are generated from the types the handlers answer with (issue 21):
 * every endpoint names its success body's schema and its error statuses, and the bodies the running
 * console actually sends conform to those schemas.
 */
class OpenApiResponsesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static ConsoleFixture console;
    static JsonNode doc;
    static ConsoleClient admin;

    @BeforeAll
    static void start() throws Exception {
        console = ConsoleFixture.start(dir);
        console.gateway.tags.add(TagValue.good(TagPath.of("plant/oven/temp"), 61.5, Instant.parse("2026-01-01T00:00:05Z")));
        doc = JSON.readTree(console.anonymous().get("/api/v1/openapi.json").body());
        admin = console.as("admin");
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    private static JsonNode operation(Endpoint endpoint) {
        return doc.path("paths").path(OpenApi.openApiPath(endpoint.path()))
                .path(endpoint.method().toLowerCase(Locale.ROOT));
    }

    @Test
    void everyEndpointNamesTheSchemaOfItsSuccessBody() throws Exception {
        List<String> missing = new ArrayList<>();
        for (Endpoint endpoint : console.server.endpoints()) {
            JsonNode success = operation(endpoint).path("responses").path(Integer.toString(endpoint.reply().status()));
            JsonNode content = success.path("content");
            boolean named = endpoint.reply().status() == 204 ? success.isObject() && content.isMissingNode()
                    : content.size() == 1 && content.elements().next().path("schema").size() > 0;
            if (!named) {
                missing.add(endpoint.method() + " " + endpoint.path() + ": " + success);
            }
        }
        assertThat(missing).isEmpty();
        assertThat(doc.at("/paths/~1api~1v1~1store-forward/get/responses/200/content/application~1json/schema"))
                .isEqualTo(JSON.readTree("{\"type\": \"array\", \"items\": "
                        + "{\"$ref\": \"#/components/schemas/StoreForwardAccess.Channel\"}}"));
    }

    @Test
    void everyErrorStatusAnEndpointCanAnswerNamesTheErrorBody() {
        JsonNode history = doc.at("/paths/~1api~1v1~1history/get/responses");
        assertThat(fieldNames(history)).contains("200", "400", "401", "403", "422", "500", "502", "503")
                .doesNotContain("404", "409");
        assertThat(history.at("/422/content/application~1json/schema/$ref").textValue())
                .isEqualTo(JsonSchemas.REF_PREFIX + "ApiError.Body");
        assertThat(fieldNames(doc.at("/paths/~1api~1v1~1store-forward~1{connection}/get/responses"))).contains("404");
        assertThat(fieldNames(doc.at("/paths/~1api~1v1~1store-forward/get/responses"))).doesNotContain("404", "400");
        assertThat(fieldNames(doc.at("/paths/~1api~1v1~1session/post/responses"))).contains("401", "415", "429")
                .doesNotContain("403");
        for (Endpoint endpoint : console.server.endpoints()) {
            operation(endpoint).path("responses").fields().forEachRemaining(response -> {
                if (response.getKey().startsWith("4") || response.getKey().startsWith("5")) {
                    assertThat(response.getValue().at("/content/application~1json/schema").size())
                            .as(endpoint + " " + response.getKey()).isPositive();
                }
            });
        }
    }

    @Test
    void everyKindOfFailureHasAStatusOfItsOwn() {
        Set<Integer> statuses = new HashSet<>();
        for (Class<?> kind : RequestFailure.class.getPermittedSubclasses()) {
            @SuppressWarnings("unchecked")
            int status = ApiError.statusOf((Class<? extends RequestFailure>) kind);
            assertThat(status).as(kind.getSimpleName()).isBetween(400, 599);
            assertThat(statuses.add(status)).as("%s has a status of its own", kind.getSimpleName()).isTrue();
        }
        assertThat(statuses).hasSize(9);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "/health, /health",
            "/api/v1/setup, /api/v1/setup",
            "/api/v1/session, /api/v1/session",
            "/api/v1/users, /api/v1/users",
            "/api/v1/roles, /api/v1/roles",
            "/api/v1/tokens, /api/v1/tokens",
            "/api/v1/store-forward, /api/v1/store-forward",
            "/api/v1/store-forward/db, /api/v1/store-forward/{connection}",
            "/api/v1/store-forward/db/quarantine, /api/v1/store-forward/{connection}/quarantine",
            "/api/v1/store-forward/nowhere, /api/v1/store-forward/{connection}",
            "/api/v1/store-forward/db/quarantine/x, /api/v1/store-forward/{connection}/quarantine/{id}",
            "/api/v1/tags, /api/v1/tags",
            "/api/v1/tags/plant/oven/temp, /api/v1/tags/{path}",
            "/api/v1/historian, /api/v1/historian",
            "/api/v1/historian/wal, /api/v1/historian/wal",
            "/api/v1/alarms, /api/v1/alarms",
            "/api/v1/audit, /api/v1/audit",
            "/api/v1/audit?limit=0, /api/v1/audit",
            "/api/v1/losses, /api/v1/losses",
            "/api/v1/pipelines/nothing, /api/v1/pipelines/{id}",
            "/api/v1/connections/plc9/certificates, /api/v1/connections/{id}/certificates",
    })
    void theBodyTheConsoleSendsConformsToTheSchemaOfItsStatus(String path, String template) throws Exception {
        HttpResponse<String> response = admin.get(path);
        JsonNode schema = doc.path("paths").path(template).path("get").path("responses")
                .path(Integer.toString(response.statusCode())).at("/content/application~1json/schema");
        assertThat(schema.isMissingNode()).as("the description names status %d of %s", response.statusCode(), template)
                .isFalse();
        assertThat(new JsonSchemaChecker(doc).violations(JSON.readTree(response.body()), schema))
                .as(response.body()).isEmpty();
    }

    @Test
    void theCheckerRejectsABodyThatDoesNotMatchItsSchema() throws Exception {
        ObjectNode channel = (ObjectNode) JSON.readTree(admin.get("/api/v1/store-forward/db").body());
        JsonNode schema = doc.at("/paths/~1api~1v1~1store-forward~1{connection}/get/responses/200/content/application~1json/schema");
        JsonSchemaChecker checker = new JsonSchemaChecker(doc);
        assertThat(checker.violations(channel, schema)).isEmpty();

        channel.remove("state");
        channel.put("bufferedBytes", "many");
        channel.put("destination", "SIDEWAYS");
        channel.putNull("connection");
        channel.put("surprise", 1);
        assertThat(checker.violations(channel, schema)).containsExactlyInAnyOrder(
                "$: required property \"state\" is missing",
                "$.bufferedBytes: string where \"integer\" was expected",
                "$.destination: \"SIDEWAYS\" is not one of [\"UP\",\"DOWN\",\"UNKNOWN\"]",
                "$.connection: null where \"string\" was expected",
                "$.surprise: property not in the schema");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
