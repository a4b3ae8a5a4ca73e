package io.qubiq.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.demoplant.NodeInfo;
import io.qubiq.demoplant.SimulatedPlant;
import io.qubiq.demoplant.TopicInfo;
import io.qubiq.testkit.http.ConsoleClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo plant's two connections are built by their kinds like configured ones, and both collect. */
class DemoDevicesTest {

    @TempDir
    Path dir;

    @Test
    void theDemoPlantsOpcUaAndMqttConnectionsBothCollectAndTheGatewayIsReady() throws Exception {
        GatewayConfig config = ConfigLoader.parse("test.yaml", TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                demo_plant:
                  opcua_port: 0
                  mqtt_port: 0
                """, GatewayConfig.class, Map.of());
        DataDirectory data = DataDirectory.open(dir.resolve("data"));
        Gateway gateway = new Gateway(config, data, Clock.systemUTC());
        try {
            gateway.lifecycle().startAll();
            ConsoleClient console = ConsoleClient.signedIn("http://127.0.0.1:" + gateway.console().port(),
                    TestOperators.ADMIN, TestOperators.ADMIN_PASSWORD);
            Set<String> opcua = SimulatedPlant.nodes().stream().map(NodeInfo::tagPath).collect(Collectors.toSet());
            Set<String> mqtt = SimulatedPlant.topics().stream().map(TopicInfo::tagPath).collect(Collectors.toSet());

            await().atMost(Duration.ofSeconds(60)).until(() -> {
                Set<String> seen = gateway.tagBus().latestValues().snapshot().stream()
                        .map(value -> value.path().value()).collect(Collectors.toSet());
                return seen.stream().anyMatch(opcua::contains) && seen.stream().anyMatch(mqtt::contains);
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> console.get("/health").body()
                    .contains("\"status\":\"READY\""));
            assertThat(console.get("/api/v1/connections").body()).contains(
                    "\"id\":\"" + Gateway.DEMO_PLANT + "\"", "\"type\":\"opcua\"",
                    "\"id\":\"" + Gateway.DEMO_PLANT_MQTT + "\"", "\"type\":\"mqtt\"");
        } finally {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
            gateway.closeMetrics();
            data.close();
        }
    }
}
