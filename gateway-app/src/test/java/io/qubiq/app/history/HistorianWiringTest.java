package io.qubiq.app.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path in one gateway: an OPC UA device, the tag bus, the historian's store-and-forward
 * channel, an embedded QuestDB started by the gateway from its jar, and the history, channel and
 * metrics endpoints reading it back.
 */
@ExtendWith(OpcUaServerExtension.class)
class HistorianWiringTest {

    @TempDir
    static Path dir;

    static final HttpClient http = HttpClient.newHttpClient();
    static DataDirectory data;
    static Gateway gateway;
    static final Instant started = Instant.now();
    static final int questDbHttpPort = io.qubiq.questdb.process.LoopbackPorts.take(1).get(0);

    @BeforeAll
    static void start(TestOpcUaServer server) throws Exception {
        String yaml = TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                devices:
                  plc1:
                    opcua:
                      endpoint_url: %s
                      tags:
                        - path: plant/temperature
                          node_id: "%s"
                          sampling_interval_ms: 50
                questdb:
                  embedded: true
                  embedded_http_port: %d
                  embedded_pg_port: 0
                  embedded_max_heap_mb: 256
                historian:
                  linger_ms: 50
                  store_and_forward:
                    linger_ms: 10
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.DOUBLE), questDbHttpPort);
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dir);
        gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            assertThat(gateway.lifecycle().stopAll(Duration.ofSeconds(30)).timedOut()).isFalse();
        }
        if (data != null) {
            data.close();
        }
    }

    static HttpResponse<String> get(String path) {
        return TestOperators.admin(gateway).get(path);
    }

    @Test
    void deviceValuesAreStoredInTheEmbeddedQuestDbAndQueryableOverTheApi(TestOpcUaServer server) throws Exception {
        server.setValue(TestVariable.DOUBLE, 30.5);
        server.setValue(TestVariable.DOUBLE, 31.5);
        String query = "/api/v1/history?tags=plant/temperature&from="
                + URLEncoder.encode(started.minusSeconds(60).toString(), StandardCharsets.UTF_8)
                + "&to=" + URLEncoder.encode(Instant.now().plusSeconds(60).toString(), StandardCharsets.UTF_8);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            HttpResponse<String> history = get(query);
            assertThat(history.statusCode()).as(history.body()).isEqualTo(200);
            assertThat(history.body()).contains("\"tag\":\"plant/temperature\"", "31.5", "\"quality\":\"Good\"");
        });
        // the samples reached QuestDB itself, not only the live tail
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/v1/store-forward/historian").body()
                .contains("\"itemsDelivered\":") && !get("/api/v1/store-forward/historian").body()
                .contains("\"itemsDelivered\":0,"));
        assertThat(data.root().resolve("questdb/questdb.log")).exists();
    }

    @Test
    void theEmbeddedQuestDbRefusesSqlWithoutThePasswordTheGatewayKeepsInItsSecretsStore() throws Exception {
        String drop = "http://127.0.0.1:" + questDbHttpPort + "/exec?query="
                + URLEncoder.encode("drop all tables", StandardCharsets.UTF_8);
        assertThat(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(drop)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("no credentials").isEqualTo(401);

        String password = io.qubiq.config.secret.SecretStore.open(dir.resolve("secrets"),
                io.qubiq.fileops.FileOps.system()).secret("embedded-questdb-password").orElseThrow();
        assertThat(password).isNotEqualTo("quest").hasSizeGreaterThanOrEqualTo(40);
        String tables = "http://127.0.0.1:" + questDbHttpPort + "/exec?query="
                + URLEncoder.encode("tables()", StandardCharsets.UTF_8);
        HttpResponse<String> answer = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(tables))
                .header("Authorization", io.qubiq.questdb.exec.ExecClient.basic("admin", password)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    @Test
    void historianChannelAndWalSupervisorAreVisibleInTheApiAndMetrics() throws Exception {
        assertThat(get("/api/v1/store-forward").body()).contains("\"connection\":\"historian\"");
        assertThat(get("/api/v1/historian/wal").statusCode()).isEqualTo(200);
        assertThat(get("/api/v1/store-forward/historian/quarantine").body()).contains("\"entries\":[]");
        assertThat(get("/api/v1/store-forward/nope").statusCode()).isEqualTo(404);
        assertThat(get("/metrics").body()).contains("sf_buffer_bytes{connection=\"historian\"}");
        assertThat(get("/health").body()).contains("\"name\":\"questdb\",\"state\":\"RUNNING\"",
                "\"name\":\"historian\",\"state\":\"RUNNING\"", "\"name\":\"wal-supervisor\"");
    }

    @Test
    void badHistoryRequestsNameTheParameter() throws Exception {
        HttpResponse<String> noTags = get("/api/v1/history?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z");
        assertThat(noTags.statusCode()).isEqualTo(400);
        assertThat(noTags.body()).contains("tags");
    }
}
