package io.qubiq.app.storeforward;

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
import io.qubiq.testkit.postgres.PostgresServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's quarantine actions over the API of a whole gateway, against a real PostgreSQL: rows a
 * CHECK constraint refuses are quarantined while the good ones arrive; a viewer can neither retry nor
 * drop (403, nothing changes); once the constraint is relaxed an engineer retries one item (it is
 * delivered) and drops the other (gone for good, and an operator_drop in the loss ledger); both actions
 * are in the audit journal with user and remote address.
 */
class QuarantineOperationsApiTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static PostgresServer postgres;
    static DataDirectory data;
    static Gateway gateway;
    static String base;
    final ObjectMapper json = new ObjectMapper();

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
        base = "http://127.0.0.1:" + gateway.console().port();
        ConsoleClient admin = TestOperators.admin(gateway);
        for (String[] user : new String[][] {{"erin", "engineer"}, {"vic", "viewer"}}) {
            HttpResponse<String> created = admin.post("/api/v1/users", "{\"name\":\"" + user[0] + "\",\"password\":\""
                    + passwordOf(user[0]) + "\",\"roles\":[\"" + user[1] + "\"]}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
        for (long value : new long[] {1, -2, 3, -4, 5}) {
            gateway.tagBus().publish(TagValue.good(TagPath.of("line/count"), value, java.time.Instant.now()));
        }
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

    static ConsoleClient as(String user) {
        return ConsoleClient.signedIn(base, user, passwordOf(user));
    }

    JsonNode body(HttpResponse<String> answer) throws Exception {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json.readTree(answer.body());
    }

    @Test
    void aViewerCannotRetryOrDropAndAnEngineerRetriesOneAndDropsTheOtherBothAudited() throws Exception {
        ConsoleClient vic = as("vic");
        await().atMost(WAIT).until(() -> body(vic.get("/api/v1/store-forward/db")).path("itemsQuarantined").asLong() == 2
                && postgres.queryLong("SELECT count(*) FROM counts") == 3);
        JsonNode page = body(vic.get("/api/v1/store-forward/db/quarantine"));
        assertThat(page.path("total").asLong()).isEqualTo(2);
        List<Long> ids = new ArrayList<>();
        page.path("entries").forEach(entry -> ids.add(entry.path("id").asLong()));
        long newest = ids.get(0);
        long oldest = ids.get(1);
        assertThat(body(vic.get("/api/v1/store-forward/db/quarantine/" + oldest)).toString()).contains("-2");

        HttpResponse<String> viewerRetry = vic.post("/api/v1/store-forward/db/quarantine/retry", "{\"all\":true}");
        HttpResponse<String> viewerDrop = vic.post("/api/v1/store-forward/db/quarantine/drop", "{\"ids\":[" + oldest + "]}");
        assertThat(viewerRetry.statusCode()).isEqualTo(403);
        assertThat(viewerDrop.statusCode()).isEqualTo(403);
        assertThat(viewerDrop.body()).contains("lacks the permission \\\"Edit connections\\\"");
        assertThat(body(vic.get("/api/v1/store-forward/db/quarantine")).path("total").asLong()).isEqualTo(2);

        postgres.execute("ALTER TABLE counts DROP CONSTRAINT non_negative");
        ConsoleClient erin = as("erin");
        JsonNode retried = body(erin.post("/api/v1/store-forward/db/quarantine/retry", "{\"ids\":[" + oldest + "]}"));
        assertThat(retried.path("succeeded").asInt()).isEqualTo(1);
        assertThat(retried.path("results").get(0).path("outcome").asText()).isEqualTo("delivered");
        await().atMost(WAIT).until(() -> postgres.queryLong("SELECT count(*) FROM counts WHERE count = -2") == 1);

        JsonNode dropped = body(erin.post("/api/v1/store-forward/db/quarantine/drop", "{\"ids\":[" + newest + ", 999999]}"));
        assertThat(dropped.path("requested").asInt()).isEqualTo(2);
        assertThat(dropped.path("succeeded").asInt()).isEqualTo(1);
        assertThat(dropped.path("results").toString()).contains("not in the quarantine");
        assertThat(body(erin.get("/api/v1/store-forward/db/quarantine")).path("total").asLong()).isZero();
        assertThat(postgres.queryLong("SELECT count(*) FROM counts WHERE count = -4")).as("dropped for good").isZero();

        // the drop is in the loss ledger as the engineer's action, and raises no data-lost alarm
        JsonNode losses = body(vic.get("/api/v1/losses?connection=db&reason=operator_drop"));
        assertThat(losses.path("totalItems").asLong()).isEqualTo(1);
        JsonNode loss = losses.path("entries").get(0);
        assertThat(loss.path("who").asText()).isEqualTo("erin");
        assertThat(loss.path("component").asText()).isEqualTo("quarantine");
        assertThat(loss.path("bytes").asLong()).isPositive();
        assertThat(body(vic.get("/api/v1/alarms")).toString()).doesNotContain("data-lost/db");

        ConsoleClient admin = TestOperators.admin(gateway);
        await().atMost(WAIT).until(() -> body(admin.get("/api/v1/audit?user=erin")).path("entries").size() >= 3);
        JsonNode audit = body(admin.get("/api/v1/audit?user=erin&text=quarantine"));
        assertThat(audit.path("entries")).extracting(e -> e.path("action").asText())
                .containsExactly("quarantine_drop", "quarantine_retry");
        audit.path("entries").forEach(entry -> {
            assertThat(entry.path("from").asText()).isEqualTo("127.0.0.1");
            assertThat(entry.path("target").asText()).isEqualTo("connection/db/quarantine");
        });
        assertThat(audit.path("entries").get(0).path("outcome").asText()).isEqualTo("dropped with failures");
        assertThat(audit.path("entries").get(1).path("details").path("ids").asText()).isEqualTo("[" + oldest + "]");
        assertThat(vic.get("/api/v1/audit").statusCode()).as("a viewer has no View audit").isEqualTo(403);
    }

    @Test
    void anUnknownConnectionIsNotFoundAndABadSelectionIsRefusedBeforeAnythingHappens() {
        ConsoleClient erin = as("erin");
        assertThat(erin.post("/api/v1/store-forward/nope/quarantine/retry", "{\"all\":true}").statusCode()).isEqualTo(404);
        assertThat(erin.post("/api/v1/store-forward/db/quarantine/drop", "{\"ids\":\"all\"}").statusCode()).isEqualTo(400);
    }

    /** Long, uncommon and without the user name, as the password rules require. */
    private static String passwordOf(String user) {
        return "pw-" + Integer.toHexString(user.hashCode()) + "-123";
    }
}
