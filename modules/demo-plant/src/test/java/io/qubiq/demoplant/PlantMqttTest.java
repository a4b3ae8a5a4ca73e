package io.qubiq.demoplant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3BlockingClient;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3ConnAckException;
import com.hivemq.client.mqtt.mqtt3.message.connect.connack.Mqtt3ConnAckReturnCode;
import io.qubiq.connector.mqtt.MqttConnectionConfig;
import io.qubiq.connector.mqtt.MqttConnector;
import io.qubiq.connector.mqtt.MqttSubscriptionConfig;
import io.qubiq.connector.mqtt.MqttWritableTagConfig;
import io.qubiq.connector.mqtt.PayloadFormat;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The plant's MQTT side, read and written by the real MQTT connector as the demo configures it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlantMqttTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final String POWER = "demo/meter/power";
    static final String ENERGY = "demo/meter/energy";
    static final String REMOTE_SETPOINT = "demo/remote/level_setpoint";

    private SimulatedPlant plant;
    private MqttConnector connector;
    private final RecordingPublisher publisher = new RecordingPublisher();

    @BeforeAll
    void startPlantAndConnector() throws Exception {
        // 50 ms of wall time per simulated second, MQTT published every 100 ms (every other tick).
        plant = new SimulatedPlant(new DemoPlantConfig(0, 0, 100, 50, 1), Clock.systemUTC(),
                new PlantModel(1, Duration.ofSeconds(1)));
        plant.start();
        BrokerCredentials credentials = plant.mqttCredentials();
        connector = new MqttConnector("test", "demo-mqtt", connectionTo(plant.mqttHost(), plant.mqttPort())
                .withCredentials(credentials.username(), credentials.password()));
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

    /** The connection the demo configures: one wildcard JSON subscription and the writable topics. */
    static MqttConnectionConfig connectionTo(String host, int port) {
        MqttSubscriptionConfig all = MqttSubscriptionConfig.json(SimulatedPlant.MQTT_TOPIC_FILTER,
                SimulatedPlant.MQTT_TAG_TEMPLATE, DataType.FLOAT64, SimulatedPlant.MQTT_VALUE_PATH,
                Optional.of(SimulatedPlant.MQTT_TIMESTAMP_PATH), Optional.of(SimulatedPlant.MQTT_QUALITY_PATH));
        List<MqttWritableTagConfig> writable = SimulatedPlant.topics().stream()
                .filter(topic -> topic.commandTopic().isPresent())
                .map(topic -> new MqttWritableTagConfig(topic.tagPath(), topic.commandTopic().get(), 1,
                        PayloadFormat.JSON, false))
                .toList();
        return MqttConnectionConfig.of(host, port, List.of(all)).withReconnect(100, 1000).withWritableTags(writable);
    }

    private TagWriteResult write(String path, Object value) throws Exception {
        return connector.write(TagPath.of(path), value).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void everyTopicArrivesAsAGoodFloat64TagUnderTheTemplateWithThePayloadsTimestamp() {
        Instant started = Instant.now().minusSeconds(60);
        for (TopicInfo topic : SimulatedPlant.topics()) {
            TagValue value = await().atMost(WAIT).until(() -> publisher.latest(topic.tagPath()).orElse(null),
                    v -> v != null && v.quality().isGood());
            assertThat(value.type()).as(topic.tagPath()).isEqualTo(DataType.FLOAT64);
            assertThat(value.sourceTime()).as(topic.tagPath()).isAfter(started)
                    .isBeforeOrEqualTo(value.serverTime());
        }
        assertThat(connector.stats().malformedPayloads()).isZero();
        assertThat(connector.stats().unmatchedMessages()).isZero();
    }

    @Test
    void theMeterFollowsTheMotorAndItsEnergyOnlyGrows() {
        await().atMost(WAIT).until(() -> publisher.good(POWER).orElse(0.0) > 1.0);
        double first = await().atMost(WAIT).until(() -> publisher.good(ENERGY).orElse(0.0), e -> e > 0);
        await().atMost(WAIT).until(() -> publisher.good(ENERGY).orElse(0.0) > first);
        double power = publisher.good(POWER).orElseThrow();
        assertThat(power).as("kW at a motor current of at most 20 A").isBetween(0.0, 12.0);
    }

    @Test
    void aWriteThroughTheCommandTopicChangesTheLevelSetpointOfTheProcess() throws Exception {
        TagWriteResult result = write(REMOTE_SETPOINT, 3.75);

        assertThat(result.accepted()).as(result.message()).isTrue();
        await().atMost(WAIT).until(() -> plant.state().levelSetpointM() == 3.75);
        await().atMost(WAIT).until(() -> publisher.good(REMOTE_SETPOINT).orElse(0.0) == 3.75);
    }

    @Test
    void aCommandOutsideTheTankIsPublishedButRefusedByThePlantAndChangesNothing() throws Exception {
        assertThat(write(REMOTE_SETPOINT, 2.25).accepted()).isTrue();
        await().atMost(WAIT).until(() -> plant.state().levelSetpointM() == 2.25);

        TagWriteResult result = write(REMOTE_SETPOINT, 9.5);

        assertThat(result.accepted()).as("the broker took the command").isTrue();
        long afterWrite = plant.state().tick();
        await().atMost(WAIT).until(() -> plant.state().tick() > afterWrite + 10);
        assertThat(plant.state().levelSetpointM()).isEqualTo(2.25);
        assertThat(publisher.good(REMOTE_SETPOINT)).contains(2.25);
    }

    @Test
    void theBrokerRefusesAnAnonymousClientAndAWrongPasswordSoNobodyElseCanCommandThePlant() {
        String password = plant.mqttCredentials().password();
        assertThat(password).as("generated").hasSizeGreaterThanOrEqualTo(32);
        assertThat(plant.mqttCredentials().toString()).doesNotContain(password);

        Mqtt3BlockingClient anonymous = MqttClient.builder().useMqttVersion3().identifier("intruder")
                .serverHost(plant.mqttHost()).serverPort(plant.mqttPort()).buildBlocking();
        assertThatThrownBy(anonymous::connect).isInstanceOf(Mqtt3ConnAckException.class)
                .satisfies(e -> assertThat(((Mqtt3ConnAckException) e).getMqttMessage().getReturnCode())
                        .isEqualTo(Mqtt3ConnAckReturnCode.BAD_USER_NAME_OR_PASSWORD));

        Mqtt3BlockingClient guessing = MqttClient.builder().useMqttVersion3().identifier("guesser")
                .serverHost(plant.mqttHost()).serverPort(plant.mqttPort()).buildBlocking();
        assertThatThrownBy(() -> guessing.connectWith().simpleAuth().username(BrokerCredentials.USERNAME)
                .password("qubiq".getBytes(java.nio.charset.StandardCharsets.UTF_8)).applySimpleAuth().send())
                .isInstanceOf(Mqtt3ConnAckException.class);
        assertThat(connector.status().state()).as("the gateway's connection signs in").isEqualTo(ConnectionState.UP);
    }

    @Test
    void aTakenMqttPortFailsStartNamingTheKeyAndLeavesTheOpcUaPortFree() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int opcuaPort = LoopbackPorts.pick();
            SimulatedPlant blocked = new SimulatedPlant(new DemoPlantConfig(opcuaPort, taken.getLocalPort(), 1000,
                    200, 1));
            assertThatThrownBy(blocked::start).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("mqtt_port")
                    .hasMessageContaining(String.valueOf(taken.getLocalPort()));
            assertThat(blocked.isRunning()).isFalse();
            assertThat(LoopbackPorts.free(opcuaPort)).as("the OPC UA server was stopped again").isTrue();
        }
    }
}
