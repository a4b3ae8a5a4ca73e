package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.event.AuditAction;
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
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The gateway wired with a real OPC UA device, through its REST API: health, tags, browse, writes. */
@ExtendWith(OpcUaServerExtension.class)
class DeviceApiTest {

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private DataDirectory data;
    private Gateway gateway;

    @BeforeEach
    void start(TestOpcUaServer server) throws Exception {
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
                        - path: plant/setpoint
                          node_id: "%s"
                          writable: true
                          write_min: 0
                          write_max: 100
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.DOUBLE), server.nodeId(TestVariable.SETPOINT));
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dir);
        gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
    }

    @AfterEach
    void stop() throws Exception {
        gateway.lifecycle().stopAll(Duration.ofSeconds(10));
        data.close();
    }

    private HttpResponse<String> get(String path) {
        return TestOperators.admin(gateway).get(path);
    }

    private HttpResponse<String> post(String path, String body) {
        return TestOperators.admin(gateway).post(path, body);
    }

    @Test
    void deviceConnectionReportsUpAndItsTagsHaveLiveValues() throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(() -> get("/api/v1/connections").body().contains("\"state\":\"UP\""));
        assertThat(get("/api/v1/connections").body()).contains("\"id\":\"plc1\"", "\"type\":\"opcua\"",
                "\"values_received\"", "\"browsable\":true", "\"certificates\":true");
        await().atMost(Duration.ofSeconds(20)).until(() -> get("/api/v1/tags/plant/temperature").statusCode() == 200);
        assertThat(get("/api/v1/tags/plant/temperature").body()).contains("\"path\":\"plant/temperature\"",
                "\"value\":21.25", "\"type\":\"FLOAT64\"", "\"quality\":\"Good\"");
        assertThat(get("/api/v1/tags/no/such/tag").statusCode()).isEqualTo(404);
        assertThat(get("/api/v1/tags/bad%20path").statusCode()).isEqualTo(400);
    }

    @Test
    void tagWriteGoesToTheDeviceReturnsItsVerdictAndIsAudited(TestOpcUaServer server) throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(() -> get("/api/v1/connections").body().contains("\"state\":\"UP\""));
        await().atMost(Duration.ofSeconds(20)).until(() -> get("/api/v1/tags/plant/setpoint").statusCode() == 200);

        HttpResponse<String> accepted = post("/api/v1/tags/plant/setpoint/write", "{\"value\": 62.5}");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
        assertThat(accepted.body()).contains("\"accepted\":true", "\"status\":\"Good\"");
        assertThat(server.value(TestVariable.SETPOINT)).isEqualTo(62.5);

        HttpResponse<String> readOnly = post("/api/v1/tags/plant/temperature/write", "{\"value\": 1}");
        assertThat(readOnly.statusCode()).isEqualTo(409);
        assertThat(readOnly.body()).contains("is not writable");

        assertThat(post("/api/v1/tags/plant/unknown/write", "{\"value\": 1}").statusCode()).isEqualTo(404);
        assertThat(post("/api/v1/tags/plant/setpoint/write", "{\"val\": 1}").statusCode()).isEqualTo(400);
        assertThat(post("/api/v1/tags/plant/setpoint/write", "not json").statusCode()).isEqualTo(400);

        assertThat(gateway.events().recentAudits()).extracting(a -> a.action() + " " + a.target() + " " + a.outcome())
                .contains("TAG_WRITE tag/plant/setpoint Good");
        assertThat(gateway.events().recentAudits()).filteredOn(a -> a.action() == AuditAction.TAG_WRITE
                        && a.outcome().equals("Good")).singleElement()
                .satisfies(a -> assertThat(a.details()).as("the value before the write and the value written")
                        .containsEntry("old_value", "50.0").containsEntry("value", "62.5"));
    }

    @Test
    void aWriteOutsideTheTagsLimitsIsRefusedWith400NamingTagValueAndLimitsAndIsAudited(TestOpcUaServer server) {
        await().atMost(Duration.ofSeconds(20)).until(() -> get("/api/v1/connections").body().contains("\"state\":\"UP\""));
        Object before = server.value(TestVariable.SETPOINT);

        HttpResponse<String> above = post("/api/v1/tags/plant/setpoint/write", "{\"value\": 250}");
        HttpResponse<String> text = post("/api/v1/tags/plant/setpoint/write", "{\"value\": \"warm\"}");

        assertThat(above.statusCode()).as(above.body()).isEqualTo(400);
        assertThat(above.body()).contains("plant/setpoint", "250", "min 0", "max 100");
        assertThat(text.statusCode()).as(text.body()).isEqualTo(400);
        assertThat(text.body()).contains("plant/setpoint", "not a number");
        assertThat(server.value(TestVariable.SETPOINT)).as("nothing reached the device").isEqualTo(before);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(gateway.events().recentAudits())
                .filteredOn(a -> a.action() == AuditAction.TAG_WRITE && a.target().equals("tag/plant/setpoint"))
                .extracting(a -> a.outcome() + " " + a.details().get("value"))
                .anySatisfy(line -> assertThat(line).startsWith("failed: ").contains("max 100").endsWith(" 250")));
    }

    @Test
    void addressSpaceIsBrowsableOneLevelAtATime(TestOpcUaServer server) throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(() -> get("/api/v1/connections").body().contains("\"state\":\"UP\""));
        HttpResponse<String> root = get("/api/v1/connections/plc1/browse");
        assertThat(root.statusCode()).as(root.body()).isEqualTo(200);
        assertThat(root.body()).contains("\"nodeClass\"");
        HttpResponse<String> folder = get("/api/v1/connections/plc1/browse?node="
                + java.net.URLEncoder.encode(server.folderNodeId(), java.nio.charset.StandardCharsets.UTF_8));
        assertThat(folder.body()).contains("Setpoint", "Double");
        assertThat(get("/api/v1/connections/nope/browse").statusCode()).isEqualTo(404);
    }
}
