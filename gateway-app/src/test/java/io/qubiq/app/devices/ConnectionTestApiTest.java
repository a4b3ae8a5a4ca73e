package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Test connection" ({@code POST /api/v1/connections/test}) on a whole gateway against a real Milo
 * OPC UA server and a real MQTT broker: a configured connection by its id, new settings that are
 * probed without being added, a wrong password (reachable, not authenticated), a masked password
 * (the running connection's), an endpoint nobody listens on, a secured endpoint whose certificate is
 * not trusted yet, settings that are not a valid section (422 with each key path), and who may test.
 */
class ConnectionTestApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static TestOpcUaServer server;
    static TestMqttBroker broker;
    static DataDirectory data;
    static Gateway gateway;
    static ConsoleClient admin;
    static ConsoleClient viewer;

    @BeforeAll
    static void start() throws Exception {
        server = TestOpcUaServer.onFreePort().start();
        broker = TestMqttBroker.onFreePort().start();
        String yaml = TestOperators.AUTH_YAML + """
                gateway: {name: connection-test}
                http:
                  port: 0
                logging:
                  file_enabled: false
                devices:
                  plc1:
                    opcua:
                      endpoint_url: %s
                      identity: {type: username, username: %s, password: %s}
                      tags: []
                  broker1:
                    mqtt:
                      host: 127.0.0.1
                      port: %d
                      subscriptions: [{topic: plant/#, tag: "mqtt/{1}"}]
                """.formatted(server.endpointUrl(), TestOpcUaServer.USERNAME, TestOpcUaServer.PASSWORD, broker.port());
        Path file = Files.writeString(dir.resolve("gateway.yaml"), yaml);
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(ConfigSource.loadFile(file, Map.of(), data.root()), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        admin = TestOperators.admin(gateway);
        HttpResponse<String> created = admin.post("/api/v1/users", """
                {"name": "victor", "password": "correct-horse-battery", "roles": ["viewer"]}""");
        assertThat(created.statusCode()).as(created.body()).isIn(200, 201);
        viewer = ConsoleClient.signedIn("http://127.0.0.1:" + gateway.console().port(), "victor",
                "correct-horse-battery");
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        }
        if (data != null) {
            data.close();
        }
        if (server != null) {
            server.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static JsonNode test(String body, int status) throws Exception {
        HttpResponse<String> answer = admin.post("/api/v1/connections/test", body);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        assertThat(answer.body()).as("no secret in an answer").doesNotContain(TestOpcUaServer.PASSWORD);
        return JSON.readTree(answer.body());
    }

    private static String opcua(String id, String settings) {
        return """
                {"id": "%s", "value": {"opcua": %s}}""".formatted(id, settings);
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void aConfiguredConnectionTestedByItsIdIsReachableAuthenticatedWithItsLatency() throws Exception {
        JsonNode tested = test("{\"id\": \"plc1\"}", 200);

        assertThat(tested.path("ok").asBoolean()).as(tested.toString()).isTrue();
        assertThat(tested.path("kind").asText()).isEqualTo("opcua");
        assertThat(tested.path("reachable").asBoolean()).isTrue();
        assertThat(tested.path("authenticated").asBoolean()).isTrue();
        assertThat(tested.path("certificate").asText()).isEqualTo("not_used");
        assertThat(tested.path("latencyMs").isIntegralNumber()).isTrue();
        assertThat(tested.path("message").asText()).contains("connected to " + server.endpointUrl(), "user operator");
    }

    @Test
    void newSettingsAreProbedWithoutAddingAConnection() throws Exception {
        JsonNode tested = test(opcua("plc9", """
                {"endpoint_url": "%s", "tags": []}""".formatted(server.endpointUrl())), 200);

        assertThat(tested.path("ok").asBoolean()).as(tested.toString()).isTrue();
        assertThat(tested.path("id").asText()).isEqualTo("plc9");
        assertThat(admin.get("/api/v1/connections").body()).doesNotContain("plc9");
        assertThat(admin.get("/api/v1/connections/plc9").statusCode()).isEqualTo(404);
    }

    @Test
    void aWrongPasswordIsReachableButNotAuthenticated() throws Exception {
        JsonNode tested = test(opcua("plc9", """
                {"endpoint_url": "%s", "identity": {"type": "username", "username": "operator", "password": "wrong"},
                 "tags": []}""".formatted(server.endpointUrl())), 200);

        assertThat(tested.path("ok").asBoolean()).isFalse();
        assertThat(tested.path("reachable").asBoolean()).isTrue();
        assertThat(tested.path("authenticated").asBoolean(true)).as(tested.toString()).isFalse();
        assertThat(tested.path("message").asText()).contains("cannot connect to " + server.endpointUrl());
    }

    @Test
    void aMaskedPasswordIsTheRunningConnectionsOwn() throws Exception {
        JsonNode tested = test(opcua("plc1", """
                {"endpoint_url": "%s", "identity": {"type": "username", "username": "operator", "password": "***"},
                 "tags": []}""".formatted(server.endpointUrl())), 200);

        assertThat(tested.path("ok").asBoolean()).as(tested.toString()).isTrue();
        assertThat(tested.path("authenticated").asBoolean()).isTrue();
    }

    @Test
    void aMaskedPasswordOfANewConnectionIsAProblemAtItsKey() throws Exception {
        JsonNode problems = test(opcua("plc9", """
                {"endpoint_url": "%s", "identity": {"type": "username", "username": "operator", "password": "***"},
                 "tags": []}""".formatted(server.endpointUrl())), 422);

        assertThat(problems.path("problems").findValuesAsText("key")).containsExactly("devices.plc9.opcua.identity.password");
    }

    @Test
    void anEndpointNobodyListensOnIsUnreachableAndSaysSo() throws Exception {
        String url = "opc.tcp://127.0.0.1:" + closedPort() + "/nothing";

        JsonNode tested = test(opcua("plc9", """
                {"endpoint_url": "%s", "tags": []}""".formatted(url)), 200);

        assertThat(tested.path("ok").asBoolean()).isFalse();
        assertThat(tested.path("reachable").asBoolean()).isFalse();
        assertThat(tested.path("authenticated").isNull()).isTrue();
        assertThat(tested.path("latencyMs").isNull()).isTrue();
        assertThat(tested.path("message").asText()).startsWith("cannot reach " + url);
    }

    @Test
    void aSecuredEndpointWhoseCertificateIsNotTrustedYetSaysSoAndWhereItWasPut() throws Exception {
        JsonNode tested = test(opcua("plc9", """
                {"endpoint_url": "%s", "security_policy": "basic256sha256", "security_mode": "sign_and_encrypt",
                 "tags": []}""".formatted(server.endpointUrl())), 200);

        assertThat(tested.path("ok").asBoolean()).isFalse();
        assertThat(tested.path("reachable").asBoolean()).isTrue();
        assertThat(tested.path("certificate").asText()).as(tested.toString()).isEqualTo("untrusted");
        assertThat(tested.path("message").asText()).contains("is not trusted", "rejected");
    }

    @Test
    void settingsThatAreNotAValidSectionAnswer422WithEveryKeyPath() throws Exception {
        JsonNode problems = test(opcua("plc9", """
                {"endpoint_url": "opc.tcp://plc9:4840", "security_policy": "rot13", "publishing_interval_ms": 1,
                 "tags": []}"""), 422);
        JsonNode checked = test(opcua("plc9", """
                {"endpoint_url": "http://plc9:4840", "tags": []}"""), 422);

        assertThat(problems.path("problems").findValuesAsText("key")).containsExactlyInAnyOrder(
                "devices.plc9.opcua.security_policy", "devices.plc9.opcua.publishing_interval_ms");
        assertThat(checked.path("problems").findValuesAsText("key")).containsExactly("devices.plc9.opcua.endpoint_url");
        assertThat(test("{\"value\": {\"opcua\": {\"tags\": []}, \"mqtt\": {}}}", 422).path("problems").size())
                .isPositive();
    }

    @Test
    void anMqttBrokerIsTestedWithAClientOfItsOwn() throws Exception {
        JsonNode tested = test("{\"id\": \"broker1\"}", 200);

        assertThat(tested.path("ok").asBoolean()).as(tested.toString()).isTrue();
        assertThat(tested.path("kind").asText()).isEqualTo("mqtt");
        assertThat(tested.path("certificate").asText()).isEqualTo("not_used");
        assertThat(admin.get("/api/v1/connections/broker1").body()).contains("\"state\":\"UP\"");
    }

    @Test
    void anMqttPortNobodyListensOnIsUnreachable() throws Exception {
        JsonNode tested = test("""
                {"value": {"mqtt": {"host": "127.0.0.1", "port": %d, "subscriptions": []}}}""".formatted(closedPort()),
                200);

        assertThat(tested.path("ok").asBoolean()).isFalse();
        assertThat(tested.path("reachable").asBoolean()).isFalse();
        assertThat(tested.path("message").asText()).startsWith("cannot reach mqtt://127.0.0.1:");
    }

    @Test
    void anUnknownIdIsNotFoundAndAViewerMayNotTest() throws Exception {
        assertThat(admin.post("/api/v1/connections/test", "{\"id\": \"nope\"}").statusCode()).isEqualTo(404);
        assertThat(admin.post("/api/v1/connections/test", "{}").statusCode()).isEqualTo(400);
        assertThat(viewer.post("/api/v1/connections/test", "{\"id\": \"plc1\"}").statusCode()).isEqualTo(403);
    }
}
