package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The gateway wired with a real OPC UA server (Milo, in-process), seen through {@code /health}:
 * ready means collecting. Would catch a /health that says READY once the components started while
 * the OPC UA session or its subscription does not exist yet, and one that stays READY while the
 * server is gone.
 */
@ExtendWith(OpcUaServerExtension.class)
class ReadyMeansCollectingTest {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final Logger connectorLog = (Logger) LoggerFactory.getLogger(OpcUaConnector.class);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private DataDirectory data;
    private Gateway gateway;

    @BeforeEach
    void start(TestOpcUaServer server) throws Exception {
        lines.start();
        connectorLog.addAppender(lines);
        String yaml = TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                devices:
                  plc1:
                    opcua:
                      endpoint_url: %s
                      reconnect_initial_ms: 200
                      reconnect_max_ms: 1000
                      tags:
                        - path: plant/temperature
                          node_id: "%s"
                          sampling_interval_ms: 50
                        - path: plant/setpoint
                          node_id: "%s"
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.DOUBLE),
                server.nodeId(TestVariable.SETPOINT));
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dir);
        gateway = new Gateway(config, data, Clock.systemUTC());
    }

    @AfterEach
    void stop() throws Exception {
        gateway.lifecycle().stopAll(Duration.ofSeconds(10));
        data.close();
        connectorLog.detachAppender(lines);
    }

    private HttpResponse<String> health() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.console().port() + "/health"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private boolean subscribedLogged() {
        return List.copyOf(lines.list).stream().anyMatch(line -> line.getFormattedMessage()
                .startsWith("OPC UA connection plc1: subscribed: 2 items monitored in 1 subscription"));
    }

    @Test
    void healthIsNotReadyUntilTheOpcUaSubscriptionExists() throws Exception {
        gateway.lifecycle().startAll();
        List<String> seen = new ArrayList<>();

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5)).until(() -> {
            HttpResponse<String> health = health();
            boolean ready = health.body().contains("\"status\":\"READY\"");
            seen.add(health.statusCode() + " " + (ready ? "READY" : health.body()));
            if (ready) {
                assertThat(subscribedLogged()).as("READY only once the subscription exists").isTrue();
            }
            return ready;
        });

        assertThat(seen.get(0)).as("right after start-up the session and subscription do not exist yet")
                .startsWith("503 ").contains("\"status\":\"STARTING\"", "device:plc1");
        assertThat(seen.get(seen.size() - 1)).startsWith("200 READY");
        assertThat(List.copyOf(lines.list)).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).startsWith("OPC UA connection plc1: session with "
                        + "opc.tcp://").contains("active"))
                .anySatisfy(line -> assertThat(line).contains("subscribed: 2 items monitored in 1 subscription;"
                        + " subscription ").contains("publishing interval", "revised sampling intervals"));
    }

    @Test
    void duringAnOpcUaServerOutageHealthIsDegradedWithTheReasonAndReadyAgainAfterIt(TestOpcUaServer server)
            throws Exception {
        gateway.lifecycle().startAll();
        await().atMost(Duration.ofSeconds(30)).until(() -> health().body().contains("\"status\":\"READY\""));

        server.stop();

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            HttpResponse<String> health = health();
            assertThat(health.statusCode()).as("degraded is still running").isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"DEGRADED\"", "\"component\":\"device:plc1\"",
                    "\"state\":\"DOWN\"");
        });

        server.start();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> health().body().contains("\"status\":\"READY\""));
    }
}
