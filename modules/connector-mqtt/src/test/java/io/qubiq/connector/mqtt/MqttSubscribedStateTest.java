package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.tag.DataType;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.mqtt.MqttBrokerExtension;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What readiness reads of an MQTT connection: {@code subscribed()} turns true only once the broker
 * granted the topic filters, and false while the broker is gone. Would catch a connector that says
 * subscribed at CONNACK (a message published then can still miss the subscription) or stays
 * subscribed through an outage.
 */
@ExtendWith(MqttBrokerExtension.class)
class MqttSubscribedStateTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void subscribedOnlyOnceTheBrokerGrantedTheFiltersAndNotWhileTheBrokerIsGone(TestMqttBroker broker) {
        RecordingPublisher publisher = new RecordingPublisher();
        MqttConnectionConfig config = MqttConnectionConfig.of(broker.host(), broker.port(), List.of(
                MqttSubscriptionConfig.plain("ready/temp", "oven/temperature", DataType.FLOAT64)));
        try (MqttConnector connector = new MqttConnector("gw", "ready", config, Clock.systemUTC(),
                new RecordingEvents());
             TestClient device = new TestClient(broker.host(), broker.port())) {
            assertThat(connector.subscribed()).as("not started").isFalse();
            connector.start(publisher);

            await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(connector::subscribed);
            device.publish("ready/temp", "21.5"); // once, no retry: the subscription must exist already

            await().atMost(WAIT).until(() -> publisher.latest("oven/temperature").isPresent());

            broker.stop();
            await().atMost(WAIT).until(() -> !connector.subscribed());
            broker.start();
            await().atMost(Duration.ofSeconds(60)).until(connector::subscribed);
        }
    }
}
