package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.connector.WriteLimitException;
import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.testkit.mqtt.MqttBrokerExtension;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import io.qubiq.testkit.RecordingEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(MqttBrokerExtension.class)
class MqttConnectorTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeResources() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    private final RecordingEvents events = new RecordingEvents();

    private MqttConnector started(TestMqttBroker broker, String id, MqttConnectionConfig config,
                                  RecordingPublisher publisher) {
        MqttConnector connector = new MqttConnector("gw", id, config, java.time.Clock.systemUTC(), events);
        resources.add(connector);
        connector.start(publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        return connector;
    }

    private TestClient client(TestMqttBroker broker) {
        TestClient client = new TestClient(broker.host(), broker.port());
        resources.add(client);
        return client;
    }

    /** Publishes until the connector has subscribed and the first value arrived (SUBACK races the test). */
    private static void publishUntilSeen(TestClient device, RecordingPublisher publisher, String topic, String payload,
                                         String tag) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            device.publish(topic, payload);
            return publisher.latest(tag).isPresent();
        });
    }

    @Test
    void plainPayloadsBecomeTagValuesOfTheDeclaredType(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        started(broker, "plain", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.plain("plain/temp", "oven/temperature", DataType.FLOAT64),
                MqttSubscriptionConfig.plain("plain/count", "oven/count", DataType.INT32),
                MqttSubscriptionConfig.plain("plain/running", "oven/running", DataType.BOOLEAN),
                MqttSubscriptionConfig.plain("plain/recipe", "oven/recipe", DataType.STRING))), publisher);
        TestClient device = client(broker);
        Instant before = Instant.now();

        publishUntilSeen(device, publisher, "plain/temp", "21.5", "oven/temperature");
        device.publish("plain/count", " 42 ");
        device.publish("plain/running", "true");
        device.publish("plain/recipe", "bread #3");

        await().atMost(WAIT).until(() -> publisher.latest("oven/recipe").isPresent()
                && publisher.latest("oven/running").isPresent() && publisher.latest("oven/count").isPresent());
        TagValue temperature = publisher.latest("oven/temperature").orElseThrow();
        assertThat(temperature.value()).isEqualTo(21.5);
        assertThat(temperature.type()).isEqualTo(DataType.FLOAT64);
        assertThat(temperature.quality()).isEqualTo(Quality.GOOD);
        assertThat(temperature.sourceTime()).isAfterOrEqualTo(before.minusSeconds(1)).isEqualTo(temperature.serverTime());
        assertThat(publisher.latest("oven/count").orElseThrow().value()).isEqualTo(42);
        assertThat(publisher.latest("oven/running").orElseThrow().value()).isEqualTo(true);
        assertThat(publisher.latest("oven/recipe").orElseThrow().value()).isEqualTo("bread #3");
    }

    @Test
    void jsonPayloadsCarryTheirValueSourceTimestampAndQuality(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        started(broker, "json", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.json("json/pressure", "line1/pressure", DataType.FLOAT32, "$.data.value",
                        Optional.of("$.data.ts"), Optional.of("data.q")),
                MqttSubscriptionConfig.json("json/speed", "line1/speed", DataType.INT64, "readings[1]",
                        Optional.of("ts"), Optional.empty()))), publisher);
        TestClient device = client(broker);

        publishUntilSeen(device, publisher, "json/pressure",
                "{\"data\": {\"value\": 1.25, \"ts\": \"2026-03-01T12:00:00.250Z\", \"q\": \"good\"}}", "line1/pressure");
        device.publish("json/speed", "{\"readings\": [1, 1500], \"ts\": 1772366400000}");
        device.publish("json/pressure", "{\"data\": {\"value\": 0.5, \"q\": \"BadSensorFailure\"}}");
        device.publish("json/pressure", "{\"data\": {\"q\": false}}");

        await().atMost(WAIT).until(() -> publisher.latest("line1/pressure").map(v -> v.value() == null).orElse(false)
                && publisher.latest("line1/speed").isPresent());
        List<TagValue> all = publisher.of("line1/pressure"); // the first message may have been sent more than once
        List<TagValue> pressures = all.subList(all.size() - 3, all.size());
        assertThat(pressures.get(0).value()).isEqualTo(1.25f);
        assertThat(pressures.get(0).type()).isEqualTo(DataType.FLOAT32);
        assertThat(pressures.get(0).quality()).isEqualTo(Quality.GOOD);
        assertThat(pressures.get(0).sourceTime()).isEqualTo(Instant.parse("2026-03-01T12:00:00.250Z"));
        assertThat(pressures.get(0).serverTime()).isAfter(pressures.get(0).sourceTime());
        assertThat(pressures.get(1).quality()).isEqualTo(Quality.BAD_SENSOR_FAILURE);
        assertThat(pressures.get(1).value()).isEqualTo(0.5f);
        assertThat(pressures.get(1).sourceTime()).isEqualTo(pressures.get(1).serverTime());
        assertThat(pressures.get(2).quality()).isEqualTo(Quality.BAD);
        assertThat(pressures.get(2).value()).isNull();
        TagValue speed = publisher.latest("line1/speed").orElseThrow();
        assertThat(speed.value()).isEqualTo(1500L);
        assertThat(speed.sourceTime()).isEqualTo(Instant.ofEpochMilli(1772366400000L));
    }

    @Test
    void wildcardTopicsMapToTagPathsThroughTheTemplate(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        started(broker, "wild", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.plain("wild/+/+/temperature", "plant/{1}/{2}/temperature", DataType.FLOAT64),
                MqttSubscriptionConfig.plain("deep/#", "deep/{1}", DataType.STRING))), publisher);
        TestClient device = client(broker);

        publishUntilSeen(device, publisher, "wild/hall1/oven3/temperature", "180", "plant/hall1/oven3/temperature");
        device.publish("wild/hall2/oven1/temperature", "175.5");
        device.publish("deep/a/b/c", "x");

        await().atMost(WAIT).until(() -> publisher.latest("plant/hall2/oven1/temperature").isPresent()
                && publisher.latest("deep/a/b/c").isPresent());
        assertThat(publisher.latest("plant/hall1/oven3/temperature").orElseThrow().value()).isEqualTo(180.0);
        assertThat(publisher.latest("plant/hall2/oven1/temperature").orElseThrow().value()).isEqualTo(175.5);
        assertThat(publisher.latest("deep/a/b/c").orElseThrow().value()).isEqualTo("x");
    }

    @Test
    void wildcardTopicsBeyondMaxDynamicTagsAreRefusedCountedAndAlarmed(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        int limit = 5;
        int beyond = 3;
        MqttConnector connector = started(broker, "flood", MqttConnectionConfig.of(broker.host(), broker.port(),
                List.of(MqttSubscriptionConfig.plain("fixed/level", "flood/fixed", DataType.FLOAT64),
                        MqttSubscriptionConfig.plain("flood/+", "flood/dyn/{1}", DataType.FLOAT64)))
                .withWritableTags(List.of(MqttWritableTagConfig.of("flood/dyn/setpoint", "cmd/{tag}")))
                .withMaxDynamicTags(limit), publisher);
        TestClient device = client(broker);

        publishUntilSeen(device, publisher, "flood/t0", "0", "flood/dyn/t0");
        for (int i = 1; i < limit + beyond; i++) {
            device.publish("flood/t" + i, Integer.toString(i));
        }
        device.publish("flood/t0", "100"); // an admitted tag keeps its values
        device.publish("fixed/level", "1"); // configured tags are not limited
        device.publish("flood/setpoint", "2");

        await().atMost(WAIT).until(() -> connector.counters().get("tag_limit_refusals") == beyond
                && publisher.latest("flood/dyn/t0").map(v -> v.value().equals(100.0)).orElse(false)
                && publisher.latest("flood/fixed").isPresent() && publisher.latest("flood/dyn/setpoint").isPresent());
        List<String> dynamic = publisher.all().stream().map(v -> v.path().toString())
                .filter(path -> path.startsWith("flood/dyn/t")).distinct().toList();
        assertThat(dynamic).as("exactly the limit of dynamic tags").hasSize(limit);
        assertThat(connector.counters()).containsEntry("dynamic_tags", (long) limit)
                .containsEntry("tag_limit_refusals", (long) beyond);
        assertThat(events.losses()).as("each refused message is a counted loss").hasSize(beyond).allSatisfy(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.DYNAMIC_TAG_LIMIT);
            assertThat(loss.connection()).isEqualTo("flood");
            assertThat(loss.detail()).contains("max_dynamic_tags").contains("5");
        });
        assertThat(events.alarms(io.qubiq.core.event.DynamicTagLimitAlarm.class)).as("one alarm, not one per message")
                .singleElement().satisfies(alarm -> {
                    assertThat(alarm.active()).isTrue();
                    assertThat(alarm.message()).contains("flood").contains("5").contains("max_dynamic_tags");
                });
        assertThat(connector.warnings()).singleElement().asString().startsWith("dynamicTagLimit:");
        assertThat(connector.status().state()).isEqualTo(ConnectionState.UP);
    }

    @Test
    void malformedPayloadsAreCountedPerTopicAndDoNotStopOtherValues(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = started(broker, "bad", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.plain("bad/level", "tank/level", DataType.FLOAT64),
                MqttSubscriptionConfig.json("bad/json", "tank/json", DataType.FLOAT64, "$.value",
                        Optional.of("$.ts"), Optional.empty()),
                MqttSubscriptionConfig.plain("bad/site/+", "site/{1}", DataType.INT32))), publisher);
        TestClient device = client(broker);

        publishUntilSeen(device, publisher, "bad/level", "1.0", "tank/level");
        device.publish("bad/level", "not a number");
        device.publish("bad/level", "12,5");
        device.publish("bad/json", "{\"other\": 1}");
        device.publish("bad/json", "{\"value\": 3, \"ts\": \"yesterday\"}");
        device.publish("bad/json", "{broken");
        device.publish("bad/site/with space", "1");
        device.publish("bad/level", "2.0");
        device.publish("bad/json", "{\"value\": 4}");

        await().atMost(WAIT).until(() -> connector.stats().malformedPayloads() == 6
                && publisher.latest("tank/json").isPresent()
                && publisher.latest("tank/level").map(v -> v.value().equals(2.0)).orElse(false));
        MqttStats stats = connector.stats();
        assertThat(stats.malformedByTopic()).containsOnlyKeys("bad/level", "bad/json", "bad/site/with space");
        assertThat(stats.malformedByTopic().get("bad/level").count()).isEqualTo(2);
        assertThat(stats.malformedByTopic().get("bad/level").lastError()).contains("\"12,5\" is not a number");
        assertThat(stats.malformedByTopic().get("bad/json").count()).isEqualTo(3);
        assertThat(stats.malformedByTopic().get("bad/json").lastError()).contains("not JSON");
        assertThat(stats.malformedByTopic().get("bad/site/with space").lastError())
                .contains("topic level \"with space\"");
        assertThat(publisher.latest("tank/json").orElseThrow().value()).isEqualTo(4.0);
        assertThat(events.losses()).as("each malformed message is a loss").hasSize(6).allSatisfy(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.MALFORMED_PAYLOAD);
            assertThat(loss.component()).isEqualTo("connector");
            assertThat(loss.connection()).isEqualTo("bad");
            assertThat(loss.bytes()).isPositive();
        });
        assertThat(connector.status().state()).isEqualTo(ConnectionState.UP);
        assertThat(connector.counters()).as("the health API's counters").containsEntry("malformed_payloads", 6L)
                .containsKeys("values_received", "unmatched_messages", "reconnects", "resubscribes", "errors");
    }

    @Test
    void tagWritePublishesToTheCommandTopicAndCompletesGood(TestMqttBroker broker) throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = started(broker, "writer", MqttConnectionConfig.of(broker.host(), broker.port(),
                List.of()).withWritableTags(List.of(
                        MqttWritableTagConfig.of("oven/setpoint", "cmd/{tag}"),
                        new MqttWritableTagConfig("oven/mode", "cmd/oven/mode", 0, PayloadFormat.JSON, false))),
                publisher);
        TestClient observer = client(broker);
        observer.subscribe("cmd/#");

        TagWriteResult setpoint = connector.write(TagPath.of("oven/setpoint"), 182.5).get(10, TimeUnit.SECONDS);
        TagWriteResult mode = connector.write(TagPath.of("oven/mode"), "auto").get(10, TimeUnit.SECONDS);

        assertThat(setpoint.accepted()).isTrue();
        assertThat(setpoint.status()).isEqualTo(Quality.GOOD);
        assertThat(setpoint.message()).contains("acknowledged");
        assertThat(mode.accepted()).isTrue();
        assertThat(mode.message()).contains("QoS 0");
        await().atMost(WAIT).untilAsserted(() -> assertThat(observer.received()).contains(
                new TestClient.Received("cmd/oven/setpoint", "182.5", 1, false),
                new TestClient.Received("cmd/oven/mode", "{\"value\":\"auto\"}", 0, false)));
    }

    @Test
    void writesOutsideTheTagsMinAndMaxOrNotNumbersAreRefusedBeforeAnythingIsPublished(TestMqttBroker broker)
            throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = started(broker, "limited", MqttConnectionConfig.of(broker.host(), broker.port(),
                List.of()).withWritableTags(List.of(MqttWritableTagConfig.of("tank/setpoint", "limits/{tag}")
                        .withLimits(0, 5))), publisher);
        TestClient observer = client(broker);
        observer.subscribe("limits/#");

        assertThatThrownBy(() -> connector.write(TagPath.of("tank/setpoint"), 9.5).get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(WriteLimitException.class)
                .hasMessageContaining("tank/setpoint").hasMessageContaining("9.5")
                .hasMessageContaining("min 0").hasMessageContaining("max 5").hasMessageContaining("nothing was sent");
        assertThatThrownBy(() -> connector.write(TagPath.of("tank/setpoint"), -1).get(5, TimeUnit.SECONDS))
                .cause().isInstanceOf(WriteLimitException.class);
        assertThatThrownBy(() -> connector.write(TagPath.of("tank/setpoint"), "full").get(5, TimeUnit.SECONDS))
                .cause().isInstanceOf(WriteLimitException.class).hasMessageContaining("\"full\" is not a number");
        assertThatThrownBy(() -> connector.write(TagPath.of("tank/setpoint"), true).get(5, TimeUnit.SECONDS))
                .cause().isInstanceOf(WriteLimitException.class).hasMessageContaining("not a number");
        TagWriteResult inside = connector.write(TagPath.of("tank/setpoint"), 5).get(10, TimeUnit.SECONDS);

        assertThat(inside.accepted()).as(inside.message()).isTrue();
        await().atMost(WAIT).untilAsserted(() -> assertThat(observer.received()).extracting(TestClient.Received::payload)
                .containsExactly("5"));
    }

    @Test
    void writeToATagThatIsNotWritableIsRejectedWithoutPublishing(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = started(broker, "readonly", MqttConnectionConfig.of(broker.host(), broker.port(),
                List.of(MqttSubscriptionConfig.plain("ro/temp", "ro/temperature", DataType.FLOAT64))), publisher);

        assertThatThrownBy(() -> connector.write(TagPath.of("ro/temperature"), 1.0).get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(PermanentException.class)
                .hasMessageContaining("not writable").hasMessageContaining("writable_tags");
    }

    @Test
    void mqtt5ConnectionDeliversValuesAndWrites(TestMqttBroker broker) throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnector connector = started(broker, "v5", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.plain("v5/level", "v5/level", DataType.FLOAT64)))
                .withProtocol(MqttProtocol.MQTT_5)
                .withWritableTags(List.of(MqttWritableTagConfig.of("v5/valve", "v5/cmd/valve"))), publisher);
        TestClient device = client(broker);
        device.subscribe("v5/cmd/#");

        publishUntilSeen(device, publisher, "v5/level", "3.5", "v5/level");
        TagWriteResult result = connector.write(TagPath.of("v5/valve"), true).get(10, TimeUnit.SECONDS);

        assertThat(publisher.latest("v5/level").orElseThrow().value()).isEqualTo(3.5);
        assertThat(result.accepted()).isTrue();
        await().atMost(WAIT).untilAsserted(() -> assertThat(device.received())
                .contains(new TestClient.Received("v5/cmd/valve", "true", 1, false)));
    }

    @Test
    void tlsWithoutVerificationConnectsToASelfSignedBrokerAndReceivesValues(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        started(broker, "tls", MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                        MqttSubscriptionConfig.plain("tls/temp", "tls/temperature", DataType.FLOAT64)))
                .withTls(broker.tlsPort(), false), publisher);

        publishUntilSeen(client(broker), publisher, "tls/temp", "4.5", "tls/temperature");

        assertThat(publisher.latest("tls/temperature").orElseThrow().value()).isEqualTo(4.5);
    }

    @Test
    void tlsWithVerificationRefusesAnUntrustedCertificate(TestMqttBroker broker) {
        MqttConnector connector = new MqttConnector("gw", "tls-verify", MqttConnectionConfig.of(broker.host(),
                broker.port(), List.of()).withTls(broker.tlsPort(), true).withReconnect(200, 1000));
        resources.add(connector);
        connector.start(new RecordingPublisher());

        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
        assertThat(connector.status().lastError()).hasValueSatisfying(error ->
                assertThat(error).containsIgnoringCase("certificat"));
    }
}
