package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.TagValue;
import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.tagbus.CustodialConsumer;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.tagbus.TagBus;
import io.qubiq.tagbus.TagFilter;
import io.qubiq.testkit.mqtt.Mosquitto;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 19: a QoS 1 message is acknowledged to the broker only once every durable subscriber of the
 * tag bus released its share of the message (its value buffered, delivered or accounted for), not
 * when the tag bus queued it. Against a real mosquitto with a persistent session: what the broker
 * redelivers to the next connection of the session is exactly what was not acknowledged.
 */
class AcknowledgedOnceKeptTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    /** A durable subscriber of the tag bus that records what it gets and keeps or releases its shares. */
    private static final class Durable implements CustodialConsumer {
        final List<Object> values = new CopyOnWriteArrayList<>();
        final List<Custody> held = new CopyOnWriteArrayList<>();
        private final boolean release;

        Durable(boolean release) {
            this.release = release;
        }

        @Override
        public void accept(List<TagValue> batch, Custody custody) {
            batch.forEach(value -> values.add(value.value()));
            if (release) {
                custody.release();
            } else {
                held.add(custody);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MqttProtocol.class)
    void messagesWhoseSharesAreStillHeldAreRedeliveredToTheNextConnectionOfTheSession(MqttProtocol protocol)
            throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip();
             TestClient device = new TestClient(mosquitto.host(), mosquitto.port())) {
            MqttConnectionConfig config = config(mosquitto, protocol, "qubiq-custody-held-" + protocol);
            Durable first = new Durable(false);
            TagBus bus = bus(first);
            MqttConnector connector = new MqttConnector("gw", "custody", config);
            try {
                connector.start(bus);
                awaitFirstValue(device, first);
                device.publish("cu/a", "2");
                device.publish("cu/a", "3");
                await().atMost(WAIT).until(() -> first.values.containsAll(List.of(2L, 3L)));
            } finally {
                connector.close();
                bus.stop();
            }

            Durable second = new Durable(true);
            TagBus again = bus(second);
            try (MqttConnector next = new MqttConnector("gw", "custody", config)) {
                next.start(again);
                await().atMost(WAIT).until(() -> second.values.containsAll(List.of(2L, 3L)));
            } finally {
                again.stop();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MqttProtocol.class)
    void messagesWhoseSharesWereReleasedAreNotRedelivered(MqttProtocol protocol) throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip();
             TestClient device = new TestClient(mosquitto.host(), mosquitto.port())) {
            MqttConnectionConfig config = config(mosquitto, protocol, "qubiq-custody-released-" + protocol);
            Durable first = new Durable(true);
            TagBus bus = bus(first);
            MqttConnector connector = new MqttConnector("gw", "custody", config);
            try {
                connector.start(bus);
                awaitFirstValue(device, first);
                device.publish("cu/a", "2");
                device.publish("cu/a", "3");
                await().atMost(WAIT).until(() -> first.values.containsAll(List.of(2L, 3L)));
            } finally {
                connector.close();
                bus.stop();
            }

            Durable second = new Durable(true);
            TagBus again = bus(second);
            try (MqttConnector next = new MqttConnector("gw", "custody", config)) {
                next.start(again);
                device.publish("cu/a", "4"); // queued in the session if it is not subscribed yet: it arrives
                await().atMost(WAIT).until(() -> second.values.contains(4L));
                assertThat(second.values).as("values of the second connection").containsExactly(4L);
            } finally {
                again.stop();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MqttProtocol.class)
    void aMessageTapThatHoldsItsCustodyGetsTheMessageAgainOnTheNextConnection(MqttProtocol protocol)
            throws Exception {
        try (Mosquitto mosquitto = Mosquitto.startOrSkip();
             TestClient device = new TestClient(mosquitto.host(), mosquitto.port())) {
            MqttConnectionConfig config = MqttConnectionConfig.of(mosquitto.host(), mosquitto.port(), List.of())
                    .withProtocol(protocol)
                    .withPersistentSession("qubiq-custody-tap-" + protocol)
                    .withReconnect(100, 500);
            List<String> first = new CopyOnWriteArrayList<>();
            List<Custody> held = new CopyOnWriteArrayList<>();
            TagBus bus = bus(new Durable(true));
            MqttConnector connector = new MqttConnector("gw", "tap", config);
            try {
                connector.tap("cmd/#", (MqttConnector.KeepingListener) (topic, payload, custody) -> {
                    first.add(new String(payload, java.nio.charset.StandardCharsets.UTF_8));
                    held.add(custody);
                });
                connector.start(bus);
                await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
                    device.publish("cmd/a", "probe");
                    return first.contains("probe");
                });
                device.publish("cmd/a", "held");
                await().atMost(WAIT).until(() -> first.contains("held"));
            } finally {
                connector.close();
                bus.stop();
            }

            List<String> second = new CopyOnWriteArrayList<>();
            TagBus again = bus(new Durable(true));
            try (MqttConnector next = new MqttConnector("gw", "tap", config)) {
                next.tap("cmd/#", (MqttConnector.KeepingListener) (topic, payload, custody) -> {
                    second.add(new String(payload, java.nio.charset.StandardCharsets.UTF_8));
                    custody.release();
                });
                next.start(again);
                await().atMost(WAIT).until(() -> second.contains("held"));
            } finally {
                again.stop();
            }
        }
    }

    private static MqttConnectionConfig config(Mosquitto mosquitto, MqttProtocol protocol, String clientId) {
        return MqttConnectionConfig.of(mosquitto.host(), mosquitto.port(), List.of(
                        MqttSubscriptionConfig.plain("cu/+", "cu/{1}", DataType.INT64)))
                .withProtocol(protocol)
                .withPersistentSession(clientId)
                .withReconnect(100, 500);
    }

    private static TagBus bus(Durable subscriber) {
        TagBus bus = new TagBus();
        bus.subscribe(new SubscriptionSpec("durable", 1000, OverflowPolicy.DROP_OLDEST, 100, TagFilter.all(),
                subscriber));
        bus.start();
        return bus;
    }

    /** Publishes 1 until the subscription is in place and it came through. */
    private static void awaitFirstValue(TestClient device, Durable subscriber) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            device.publish("cu/a", "1");
            return subscriber.values.contains(1L);
        });
    }
}
