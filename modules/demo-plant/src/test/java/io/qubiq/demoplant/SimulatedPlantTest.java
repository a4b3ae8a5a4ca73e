package io.qubiq.demoplant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.connector.opcua.OpcUaConnectionConfig;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.connector.opcua.OpcUaTagConfig;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SimulatedPlantTest {

    static final Duration WAIT = Duration.ofSeconds(15);
    /** Bad_NotWritable and Bad_UserAccessDenied: what a server answers a write of a read-only variable. */
    static final List<Integer> READ_ONLY_CODES = List.of(0x803B0000, 0x801F0000);
    static final int BAD_OUT_OF_RANGE = 0x803C0000;
    static final String LEVEL = "demo/tank/level";
    static final String LEVEL_SETPOINT = "demo/tank/level_setpoint";
    static final String PUMP_ENABLED = "demo/pump/enabled";
    static final String PUMP_RUNNING = "demo/pump/running";
    /** Tank.Level again, configured writable in the gateway so the write reaches the server. */
    static final String LEVEL_FORCED = "demo/tank/level_forced";

    private SimulatedPlant plant;
    private OpcUaConnector connector;
    private final RecordingPublisher publisher = new RecordingPublisher();

    @BeforeAll
    void startPlantAndConnector() throws Exception {
        // 50 ms of wall time per simulated second: the process runs 20 times faster than real time.
        DemoPlantConfig config = new DemoPlantConfig(0, 0, 1000, 50, 1);
        plant = new SimulatedPlant(config, Clock.systemUTC(), new PlantModel(1, Duration.ofSeconds(1)));
        plant.start();
        connector = new OpcUaConnector("demo", connectionTo(plant.endpointUrl()));
        connector.start(publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
    }

    @AfterAll
    void stopPlantAndConnector() {
        if (connector != null) {
            connector.close();
        }
        if (plant != null) {
            plant.stop();
        }
    }

    static OpcUaConnectionConfig connectionTo(String endpointUrl) {
        List<OpcUaTagConfig> tags = new ArrayList<>();
        for (NodeInfo node : SimulatedPlant.nodes()) {
            tags.add(new OpcUaTagConfig(node.tagPath(), node.nodeId(), 50, 1, Optional.empty(), Optional.empty(),
                    Optional.empty(), node.engineeringUnit(), node.writable()));
        }
        tags.add(new OpcUaTagConfig(LEVEL_FORCED, "ns=2;s=Plant.Tank.Level", 50, 1, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), true));
        return OpcUaConnectionConfig.of(endpointUrl, tags).withPublishingIntervalMs(50).withReconnect(100, 1000)
                .withRequestTimeoutMs(10_000);
    }

    private TagWriteResult write(String path, Object value) throws Exception {
        return connector.write(TagPath.of(path), value).get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    }

    @Test
    void everyNodeDeliversGoodValuesOfItsDocumentedTypeWithFreshSourceTimestamps() {
        Instant started = Instant.now().minusSeconds(60);
        for (NodeInfo node : SimulatedPlant.nodes()) {
            TagValue value = await().atMost(WAIT).until(() -> publisher.latest(node.tagPath()).orElse(null),
                    v -> v != null && v.quality().isGood());
            assertThat(value.type()).as(node.tagPath()).isEqualTo(node.gatewayType());
            assertThat(value.sourceTime()).as(node.tagPath()).isAfter(started);
        }
        assertThat(publisher.latest("demo/line/production_count").get().type()).isEqualTo(DataType.INT64);
    }

    @Test
    void valuesChangeEveryTick() {
        TagValue first = await().atMost(WAIT).until(() -> publisher.latest(LEVEL).orElse(null),
                v -> v != null && v.quality().isGood());
        await().atMost(WAIT).until(() -> publisher.latest(LEVEL).map(v -> !v.value().equals(first.value())
                && v.sourceTime().isAfter(first.sourceTime())).orElse(false));
    }

    @Test
    void writingTheLevelSetpointIsAcceptedAndTheLevelFollows() throws Exception {
        double before = await().atMost(WAIT).until(() -> publisher.good(LEVEL).orElse(null), v -> v != null);

        TagWriteResult result = write(LEVEL_SETPOINT, 4.5);

        assertThat(result.accepted()).as(result.message()).isTrue();
        await().atMost(WAIT).until(() -> publisher.good(LEVEL_SETPOINT).orElse(0.0) == 4.5);
        assertThat(plant.state().levelSetpointM()).isEqualTo(4.5);
        await().atMost(WAIT).until(() -> publisher.good(LEVEL).orElse(0.0) > Math.max(before, 2.5) + 0.5);
    }

    @Test
    void writingPumpEnabledFalseStopsThePumpAndTrueStartsItAgain() throws Exception {
        write(LEVEL_SETPOINT, 3.0);
        TagWriteResult off = write(PUMP_ENABLED, false);
        assertThat(off.accepted()).as(off.message()).isTrue();
        await().atMost(WAIT).until(() -> publisher.latest(PUMP_RUNNING).map(v -> Boolean.FALSE.equals(v.value()))
                .orElse(false));
        await().atMost(WAIT).until(() -> publisher.good("demo/motor/speed").orElse(-1.0) == 0.0);

        assertThat(write(PUMP_ENABLED, true).accepted()).isTrue();
        await().atMost(WAIT).until(() -> publisher.latest(PUMP_RUNNING).map(v -> Boolean.TRUE.equals(v.value()))
                .orElse(false));
        await().atMost(WAIT).until(() -> publisher.good("demo/motor/speed").orElse(0.0) > 500);
    }

    @Test
    void writingAReadOnlyNodeIsRefusedByTheServerWithABadStatus() throws Exception {
        TagWriteResult result = write(LEVEL_FORCED, 1.0);

        assertThat(result.accepted()).isFalse();
        assertThat(result.status().isBad()).isTrue();
        assertThat(READ_ONLY_CODES).as(result.status().label()).contains(result.status().code());
    }

    @Test
    void aLevelSetpointOutsideTheTankIsRefusedWithBadOutOfRangeAndChangesNothing() throws Exception {
        assertThat(write(LEVEL_SETPOINT, 2.0).accepted()).isTrue();
        await().atMost(WAIT).until(() -> plant.state().levelSetpointM() == 2.0);

        TagWriteResult result = write(LEVEL_SETPOINT, 7.5);

        assertThat(result.accepted()).isFalse();
        assertThat(result.status().code()).as(result.status().label()).isEqualTo(BAD_OUT_OF_RANGE);
        long afterWrite = plant.state().tick();
        await().atMost(WAIT).until(() -> plant.state().tick() > afterWrite + 2);
        assertThat(plant.state().levelSetpointM()).isEqualTo(2.0);
        await().atMost(WAIT).until(() -> publisher.good(LEVEL_SETPOINT).orElse(0.0) == 2.0);
    }

    @Test
    void stopReleasesThePortSoAnotherPlantCanServeOnItAndTheFirstCanStartAgain() throws Exception {
        SimulatedPlant first = new SimulatedPlant(new DemoPlantConfig(0, 0, 1000, 200, 1));
        first.start();
        String endpoint = first.endpointUrl();
        int port = Integer.parseInt(endpoint.replaceAll(".*:(\\d+)/.*", "$1"));

        long stopping = System.nanoTime();
        first.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(5));
        assertThat(first.isRunning()).isFalse();

        SimulatedPlant second = new SimulatedPlant(new DemoPlantConfig(port, 0, 1000, 200, 1));
        try {
            second.start();
            assertThat(second.endpointUrl()).isEqualTo(endpoint);
            RecordingPublisher values = new RecordingPublisher();
            try (OpcUaConnector reader = new OpcUaConnector("second", connectionTo(endpoint))) {
                reader.start(values);
                await().atMost(WAIT).until(() -> values.good(LEVEL).isPresent());
            }
        } finally {
            second.stop();
        }

        first.start();
        try {
            assertThat(first.isRunning()).isTrue();
            assertThat(first.endpointUrl()).as("a restarted plant keeps its port").isEqualTo(endpoint);
        } finally {
            first.stop();
        }
    }

    @Test
    void aTakenPortFailsStartWithAConfigurationErrorNamingThePort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            SimulatedPlant blocked = new SimulatedPlant(new DemoPlantConfig(taken.getLocalPort(), 0, 1000, 200, 1));
            assertThatThrownBy(blocked::start).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("opcua_port")
                    .hasMessageContaining(String.valueOf(taken.getLocalPort()));
            assertThat(blocked.isRunning()).isFalse();
        }
    }
}
