package io.qubiq.app.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.FileGateway;
import io.qubiq.app.TestOperators;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v1/outbound/test} against a real MQTT broker (embedded HiveMQ): a configured connection
 * answers, settings naming a port nobody listens on do not, a misspelt key is refused with its key path,
 * and nothing of it changes the file. Would catch a test that reports success without asking the
 * destination, and one that writes or adds anything.
 */
class OutboundTestApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static TestMqttBroker broker;
    static FileGateway running;
    static ConsoleClient admin;

    @BeforeAll
    static void start() throws Exception {
        broker = TestMqttBroker.onFreePort().start();
        running = FileGateway.start(dir, """
                http:
                  port: 0
                logging:
                  file_enabled: false
                outbound:
                  lake:
                    mqtt: {host: 127.0.0.1, port: %d}
                """.formatted(broker.port()));
        admin = TestOperators.admin(running.gateway);
    }

    @AfterAll
    static void stop() throws Exception {
        running.close();
        broker.close();
    }

    private static JsonNode test(String body, int status) throws Exception {
        HttpResponse<String> answer = admin.post("/api/v1/outbound/test", body);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        return JSON.readTree(answer.body());
    }

    @Test
    void aConfiguredConnectionIsProbedAndAnswers() throws Exception {
        JsonNode tested = test("{\"id\": \"lake\"}", 200);

        assertThat(tested.path("ok").asBoolean()).as(tested.toString()).isTrue();
        assertThat(tested.path("kind").asText()).isEqualTo("mqtt");
        assertThat(tested.path("latencyMs").asLong()).isNotNegative();
    }

    @Test
    void settingsNamingAPortNobodyListensOnAreReportedUnreachableAndNothingIsWritten() throws Exception {
        int dead;
        try (ServerSocket socket = new ServerSocket(0)) {
            dead = socket.getLocalPort();
        }
        byte[] file = Files.readAllBytes(running.file);

        JsonNode tested = test("{\"id\": \"spare\", \"value\": {\"mqtt\": {\"host\": \"127.0.0.1\", \"port\": " + dead
                + "}}}", 200);

        assertThat(tested.path("ok").asBoolean()).isFalse();
        assertThat(tested.path("reachable").asBoolean()).isFalse();
        assertThat(tested.path("message").asText()).isNotBlank();
        assertThat(Files.readAllBytes(running.file)).isEqualTo(file);
    }

    @Test
    void aMisspeltKeyIsRefusedWithItsKeyPathAndAnUnknownIdIsNotFound() throws Exception {
        JsonNode invalid = test("{\"id\": \"spare\", \"value\": {\"mqtt\": {\"hots\": \"127.0.0.1\"}}}", 422);

        assertThat(invalid.path("problems").findValuesAsText("key")).contains("outbound.spare.mqtt.hots");
        test("{\"id\": \"nowhere\"}", 404);
    }
}
