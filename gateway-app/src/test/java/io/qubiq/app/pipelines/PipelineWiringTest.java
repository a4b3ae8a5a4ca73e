package io.qubiq.app.pipelines;

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
import io.qubiq.testkit.postgres.PostgresServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole gateway with a pipeline: values of an OPC UA device reach PostgreSQL through the
 * pipeline and its outbound connection's channel, and the pipeline, the channel and its metrics
 * show in the API.
 */
@ExtendWith(OpcUaServerExtension.class)
class PipelineWiringTest {

    @TempDir
    static Path dir;

    static final HttpClient http = HttpClient.newHttpClient();
    static PostgresServer postgres;
    static DataDirectory data;
    static Gateway gateway;

    @BeforeAll
    static void start(TestOpcUaServer server) throws Exception {
        postgres = PostgresServer.start(dir.resolve("postgres"));
        postgres.execute("CREATE TABLE temperatures (id bigserial PRIMARY KEY, item_id text UNIQUE, tag text,"
                + " at timestamptz, celsius double precision)");
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
                outbound:
                  plant-db:
                    sql: {jdbc_url: "%s", username: postgres, idempotent: true}
                pipelines:
                  temperatures:
                    trigger: {tags: ["plant/temperature"]}
                    filter: "good"
                    outputs:
                      - connection: plant-db
                        sql:
                          statement: >-
                            INSERT INTO temperatures (item_id, tag, at, celsius)
                            VALUES (:item_id, :tag, :at, :celsius) ON CONFLICT (item_id) DO NOTHING
                          parameters: {tag: "path", at: "source_time", celsius: "value"}
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.DOUBLE), postgres.jdbcUrl());
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dir.resolve("data"));
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
        if (postgres != null) {
            postgres.close();
        }
    }

    static HttpResponse<String> get(String path) {
        return TestOperators.admin(gateway).get(path);
    }

    @Test
    void deviceValuesReachPostgresThroughThePipelineAndItsChannel(TestOpcUaServer server) throws Exception {
        server.setValue(TestVariable.DOUBLE, 30.5);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            server.setValue(TestVariable.DOUBLE, 31.5);
            return postgres.queryLong("SELECT count(*) FROM temperatures WHERE celsius = 31.5") > 0;
        });
        assertThat(postgres.queryLong("SELECT count(*) FROM temperatures WHERE tag = 'plant/temperature'")).isPositive();
    }

    @Test
    void thePipelineItsChannelAndItsMetricsShowInTheApi() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> get("/api/v1/pipelines/temperatures").body()
                .matches("(?s).*\"emitted\":[1-9].*"));
        String pipelines = get("/api/v1/pipelines").body();
        assertThat(pipelines).contains("\"id\":\"temperatures\"", "\"trigger\":\"tags plant/temperature\"",
                "\"connection\":\"plant-db\"");
        assertThat(get("/api/v1/pipelines/nope").statusCode()).isEqualTo(404);
        assertThat(get("/api/v1/store-forward").body()).contains("\"connection\":\"plant-db\"");
        // the series of the wired gateway, with what has happened so far (the pipeline emitted, above), after
        // a garbage collection: a gauge whose source only Micrometer's weak reference held would read NaN
        for (int round = 0; round < 3; round++) {
            java.lang.ref.WeakReference<Object> sentinel = new java.lang.ref.WeakReference<>(new Object());
            while (sentinel.get() != null) {
                System.gc();
                Thread.sleep(10);
            }
        }
        String metrics = get("/metrics").body();
        assertThat(metrics).contains("sf_buffer_bytes{connection=\"plant-db\"}",
                "sf_items_refused_total{connection=\"plant-db\"} 0.0",
                "tagbus_values_delivered_total{subscriber=\"pipeline-temperatures\"}",
                "device_connected{connection=\"plc1\"} 1.0",
                "device_values_received_total{connection=\"plc1\"}",
                "pipeline_events_emitted_total{pipeline=\"temperatures\"}");
        assertThat(metrics).doesNotContain("pipeline_events_emitted_total{pipeline=\"temperatures\"} 0.0")
                .doesNotContain("NaN");
        assertThat(get("/health").body()).contains("\"name\":\"pipelines\",\"state\":\"RUNNING\"");
    }
}
