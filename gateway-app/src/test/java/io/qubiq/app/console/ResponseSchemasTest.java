package io.qubiq.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.http.JsonSchemaChecker;
import io.qubiq.testkit.postgres.PostgresServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI description of a whole gateway matches what its API sends (issue 21): with a real
 * PostgreSQL refusing some rows, so that channel counters, last errors, quarantine entries, a retry's
 * results, pipeline counters and the audit journal hold real values, every body conforms to the schema
 * the description gives for its endpoint and status (generated from the console's records, filled here
 * by the application's own code).
 */
class ResponseSchemasTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static PostgresServer postgres;
    static DataDirectory data;
    static Gateway gateway;
    static ConsoleClient admin;
    static JsonSchemaChecker schemas;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresServer.start(dir.resolve("postgres"));
        postgres.execute("CREATE TABLE counts (id bigserial PRIMARY KEY, count bigint CONSTRAINT non_negative"
                + " CHECK (count >= 0))");
        String yaml = TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                outbound:
                  db:
                    sql: {jdbc_url: "%s", username: postgres}
                    store_and_forward: {fast_path: false, linger_ms: 100}
                pipelines:
                  counts:
                    trigger: {tags: ["line/count"]}
                    outputs:
                      - connection: db
                        sql:
                          statement: "INSERT INTO counts (count) VALUES (:count)"
                          parameters: {count: "value"}
                """.formatted(postgres.jdbcUrl());
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        admin = TestOperators.admin(gateway);
        schemas = new JsonSchemaChecker(JSON.readTree(admin.get("/api/v1/openapi.json").body()));
        for (long value : new long[] {1, -2, 3}) {
            gateway.tagBus().publish(TagValue.good(TagPath.of("line/count"), value, Instant.now()));
        }
        await().atMost(WAIT).until(() -> JSON.readTree(admin.get("/api/v1/store-forward/db").body())
                .path("itemsQuarantined").asLong() == 1 && postgres.queryLong("SELECT count(*) FROM counts") == 2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        }
        if (data != null) {
            data.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    /** Sends the request and checks its body against the schema of {@code template} for the status it got. */
    private static JsonNode conforms(String method, String path, String template, String body) throws Exception {
        HttpResponse<String> response = admin.send(method, path, body);
        JsonNode schema = schemas.responseSchema(method, template, response.statusCode());
        assertThat(schema.isMissingNode()).as("%s %s names status %d", method, template, response.statusCode())
                .isFalse();
        JsonNode json = JSON.readTree(response.body());
        assertThat(schemas.violations(json, schema)).as("%s %s: %s", method, path, response.body()).isEmpty();
        return json;
    }

    @Test
    void everyBodyOfTheGatewaysApiConformsToTheSchemaOfItsEndpointAndStatus() throws Exception {
        conforms("GET", "/health", "/health", null);
        JsonNode channel = conforms("GET", "/api/v1/store-forward/db", "/api/v1/store-forward/{connection}", null);
        assertThat(channel.path("lastError").isTextual()).as("a real last error is described too").isTrue();
        conforms("GET", "/api/v1/store-forward", "/api/v1/store-forward", null);
        conforms("GET", "/api/v1/orphaned-channels", "/api/v1/orphaned-channels", null);
        JsonNode page = conforms("GET", "/api/v1/store-forward/db/quarantine",
                "/api/v1/store-forward/{connection}/quarantine", null);
        long id = page.path("entries").get(0).path("id").asLong();
        conforms("GET", "/api/v1/store-forward/db/quarantine/" + id,
                "/api/v1/store-forward/{connection}/quarantine/{id}", null);
        JsonNode retried = conforms("POST", "/api/v1/store-forward/db/quarantine/retry",
                "/api/v1/store-forward/{connection}/quarantine/retry", "{\"ids\": [" + id + ", 999999]}");
        assertThat(retried.path("results")).hasSize(2);
        conforms("GET", "/api/v1/store-forward/nope/quarantine", "/api/v1/store-forward/{connection}/quarantine", null);
        conforms("GET", "/api/v1/pipelines", "/api/v1/pipelines", null);
        conforms("POST", "/api/v1/pipelines/counts/disable", "/api/v1/pipelines/{id}/disable", "{}");
        conforms("POST", "/api/v1/pipelines/counts/enable", "/api/v1/pipelines/{id}/enable", "{}");
        conforms("GET", "/api/v1/connections", "/api/v1/connections", null);
        conforms("GET", "/api/v1/tags", "/api/v1/tags", null);
        conforms("GET", "/api/v1/alarms", "/api/v1/alarms", null);
        conforms("GET", "/api/v1/losses", "/api/v1/losses", null);
        await().atMost(WAIT).until(() -> JSON.readTree(admin.get("/api/v1/audit").body()).path("entries").size() >= 3);
        conforms("GET", "/api/v1/audit", "/api/v1/audit", null);
        conforms("GET", "/api/v1/users", "/api/v1/users", null);
        conforms("GET", "/api/v1/session", "/api/v1/session", null);
        conforms("GET", "/api/v1/config", "/api/v1/config", null);
        conforms("GET", "/api/v1/config/schema", "/api/v1/config/schema", null);
        JsonNode invalid = conforms("POST", "/api/v1/config/validate", "/api/v1/config/validate",
                "{\"gateway\": {\"nmae\": \"x\"}, \"http\": {\"port\": 0}}");
        assertThat(invalid.path("problems")).isNotEmpty();
        JsonNode changed = conforms("POST", "/api/v1/config/validate", "/api/v1/config/validate",
                "{\"http\": {\"port\": 0}, \"outbound\": {}, \"pipelines\": {}}");
        assertThat(changed.path("diff")).as("null where a side is absent, values of any type").isNotEmpty();
        conforms("POST", "/api/v1/config/validate", "/api/v1/config/validate", "{\"gateway\": ");
    }
}
