package io.qubiq.app.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.DurableBuffer;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole gateway, started as {@code qubiq run} starts it, in which three of four outbound channels
 * cannot start: the buffer directory of {@code blocked} is a regular file, the buffer of
 * {@code locked} is held open by someone else, the buffer of {@code newer} was written by a newer
 * gateway; nor can the audit journal's channel. The gateway
 * starts anyway and runs DEGRADED: /health answers 200 naming each with the path and the error, the
 * third channel delivers what the pipeline sends it, the pipeline counts its items for the failed
 * channels as refused, and audit events are not held in memory but raise the not-journaled alarm. A
 * device connection nobody answers is listed DOWN beside them.
 */
class ChannelStartFailureTest {

    @TempDir
    static Path dir;

    static final HttpClient http = HttpClient.newHttpClient();
    static TestMqttBroker broker;
    static Mqtt5BlockingClient subscriber;
    static final List<String> received = new CopyOnWriteArrayList<>();
    static DurableBuffer holder;
    static Path blockedBuffer;
    static Path lockedBuffer;
    static Path newerBuffer;
    static DataDirectory data;
    static Gateway gateway;

    @BeforeAll
    static void start() throws Exception {
        broker = TestMqttBroker.onFreePort().start();
        subscriber = MqttClient.builder().useMqttVersion5().identifier("start-failure-subscriber")
                .serverHost(broker.host()).serverPort(broker.port()).buildBlocking();
        subscriber.connect();
        subscriber.toAsync().subscribeWith().topicFilter("line/count").qos(MqttQos.AT_LEAST_ONCE)
                .callback(publish -> received.add(new String(publish.getPayloadAsBytes(), StandardCharsets.UTF_8)))
                .send().join();

        Path dataDir = dir.resolve("data");
        blockedBuffer = dataDir.resolve("connections").resolve("blocked").resolve("buffer");
        Files.createDirectories(blockedBuffer.getParent());
        Files.writeString(blockedBuffer, "not a directory");
        Path auditBuffer = dataDir.resolve("connections").resolve("audit").resolve("buffer");
        Files.createDirectories(auditBuffer.getParent());
        Files.writeString(auditBuffer, "not a directory either");
        lockedBuffer = dataDir.resolve("connections").resolve("locked").resolve("buffer");
        holder = SegmentedDiskBuffer.open(BufferOptions.defaults(lockedBuffer), WatermarkListener.none());
        newerBuffer = dataDir.resolve("connections").resolve("newer").resolve("buffer");
        Files.createDirectories(newerBuffer);
        Files.writeString(newerBuffer.resolve("FORMAT"), "qubiq-buffer format 2\n"); // as a newer gateway leaves it

        String mqtt = "mqtt: {host: \"%s\", port: %d, connect_timeout_ms: 1000}".formatted(broker.host(),
                broker.port());
        String yaml = TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                devices:
                  plc-offline:
                    opcua:
                      endpoint_url: "opc.tcp://127.0.0.1:%2$d/nobody-listens"
                      tags:
                        - path: plant/temperature
                          node_id: "ns=2;s=Temperature"
                outbound:
                  blocked:
                    %1$s
                  good:
                    %1$s
                  locked:
                    %1$s
                  newer:
                    %1$s
                pipelines:
                  counts:
                    trigger: {tags: ["line/count"]}
                    outputs:
                      - connection: blocked
                        mqtt: {topic: "blocked/count", payload: "value", qos: 1}
                      - connection: good
                        mqtt: {topic: "line/count", payload: "value", qos: 1}
                      - connection: locked
                        mqtt: {topic: "locked/count", payload: "value", qos: 1}
                """.formatted(mqtt, unusedPort());
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dataDir);
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
        if (holder != null) {
            holder.close();
        }
        if (subscriber != null) {
            subscriber.disconnect();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theGatewayStartsDegradedWithEachChannelThatCannotStartFailedAndTheRestRunning() {
        assertThat(gateway.lifecycle().readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(state("channel:blocked")).isEqualTo(ComponentState.FAILED);
        assertThat(state("channel:locked")).isEqualTo(ComponentState.FAILED);
        assertThat(state("channel:newer")).isEqualTo(ComponentState.FAILED);
        assertThat(state("audit-journal")).isEqualTo(ComponentState.FAILED);
        assertThat(state("channel:good")).isEqualTo(ComponentState.RUNNING);
        assertThat(state("pipelines")).isEqualTo(ComponentState.RUNNING);
        assertThat(state("devices")).isEqualTo(ComponentState.RUNNING);
    }

    @Test
    void healthAnswers200DegradedAndNamesEachFailedChannelWithThePathAndTheError() throws Exception {
        // 503 STARTING until the offline device connection has failed its first attempt (ready means collecting)
        await("health settled").atMost(Duration.ofSeconds(30)).until(() -> health().statusCode() == 200);
        HttpResponse<String> health = health();

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"DEGRADED\"",
                "{\"component\":\"channel:blocked\",\"state\":\"FAILED\",\"reason\":\"opening buffer " + blockedBuffer,
                "{\"component\":\"channel:locked\",\"state\":\"FAILED\",\"reason\":\"buffer directory " + lockedBuffer
                        + " is locked by process PID " + ProcessHandle.current().pid());
        assertThat(health.body()).contains("{\"component\":\"audit-journal\",\"state\":\"FAILED\"");
        assertThat(health.body()).doesNotContain("\"component\":\"channel:good\"")
                .as("the audit channel did not start: its journal is listed, not its destination")
                .doesNotContain("\"component\":\"channel:audit\"");
        String reason = gateway.lifecycle().statuses().stream().filter(s -> s.name().equals("channel:blocked"))
                .findFirst().orElseThrow().error().orElseThrow();
        assertThat(reason).as("the OS error, not only the path").contains("FileAlreadyExistsException");
        assertThat(TestOperators.admin(gateway).get("/metrics").body())
                .containsPattern("qubiq_degraded_parts [45]\\.0"); // 5 once the offline device was tried
    }

    @Test
    void theRunningChannelDeliversAndThePipelineCountsItsItemsForTheFailedChannelsAsRefused() {
        for (int i = 1; i <= 5; i++) {
            gateway.tagBus().publish(TagValue.good(TagPath.of("line/count"), (long) i, Instant.now()));
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> received.size() >= 5);
        assertThat(received).containsExactly("1", "2", "3", "4", "5");
        await().atMost(Duration.ofSeconds(10)).until(() -> pipelineStatus().contains("\"refused\":10,"));
        assertThat(pipelineStatus()).contains(
                "{\"connection\":\"blocked\",\"submitted\":0,\"refused\":5}",
                "{\"connection\":\"good\",\"submitted\":5,\"refused\":0}",
                "{\"connection\":\"locked\",\"submitted\":0,\"refused\":5}",
                "store-and-forward channel 'locked' is not running");
    }

    @Test
    void aDeviceThatCannotBeReachedIsADegradedPartNotAReasonToStop() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> health().body().contains(
                "{\"component\":\"device:plc-offline\",\"state\":\"DOWN\",\"reason\":\"disconnected since "));
        assertThat(health().statusCode()).isEqualTo(200);
        assertThat(state("devices")).isEqualTo(ComponentState.RUNNING);
    }

    @Test
    void anAuditEventWithoutItsJournalRaisesTheNotJournaledAlarmInsteadOfWaitingInMemory() {
        TestOperators.admin(gateway); // signing in is audited

        assertThat(gateway.events().activeAlarms()).anySatisfy(alarm ->
                assertThat(alarm).isInstanceOf(io.qubiq.core.event.AuditNotJournaledAlarm.class));
    }

    @Test
    void aBufferWrittenByANewerGatewayFailsOnlyItsChannelSayingSoAndIsLeftAsItWas() throws Exception {
        String reason = gateway.lifecycle().statuses().stream().filter(s -> s.name().equals("channel:newer"))
                .findFirst().orElseThrow().error().orElseThrow();

        // would catch: the newer store taken for damage (segments set aside, ack file rewritten) or the gateway stopping
        assertThat(reason).contains("buffer " + newerBuffer.resolve("FORMAT"), "format version 2, newer than version 1",
                "Nothing was changed", "move " + newerBuffer + " aside");
        assertThat(health().body()).contains("{\"component\":\"channel:newer\",\"state\":\"FAILED\"");
        try (var files = Files.list(newerBuffer)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("only the lock file beside the format line").containsExactlyInAnyOrder("FORMAT", "buffer.lock");
        }
        assertThat(Files.readString(newerBuffer.resolve("FORMAT"))).isEqualTo("qubiq-buffer format 2\n");
    }

    @Test
    void theQuarantineOfAChannelThatDidNotStartAnswersConflictNotAnInternalError() {
        HttpResponse<String> answer = TestOperators.admin(gateway).get("/api/v1/store-forward/blocked/quarantine");
        assertThat(answer.statusCode()).isEqualTo(409);
        assertThat(answer.body()).contains("is not running");
        assertThat(TestOperators.admin(gateway).get("/api/v1/store-forward/blocked").statusCode()).isEqualTo(200);
    }

    private static HttpResponse<String> health() throws Exception {
        return http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + gateway.console().port() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int unusedPort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String pipelineStatus() {
        return TestOperators.admin(gateway).get("/api/v1/pipelines/counts").body();
    }

    private static ComponentState state(String component) {
        return gateway.lifecycle().statuses().stream().filter(status -> status.name().equals(component))
                .map(ComponentStatus::state).findFirst().orElseThrow();
    }
}
