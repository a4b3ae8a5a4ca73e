package io.qubiq.sink.mqtt;

import io.qubiq.testkit.mqtt.PublishPolicy;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The sink contract against embedded HiveMQ CE over MQTT 5. The rejected item is a publish to
 * {@code forbidden/...}, which the broker's {@link PublishPolicy} answers with PUBACK reason code
 * NOT_AUTHORIZED: a real reason code from a real broker.
 */
class HiveMqSinkContractTest extends MqttSinkContract {

    static TestMqttBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.onFreePort().withPublishPolicy(Duration.ofSeconds(2)).start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Override
    protected MqttSinkConfig config() {
        return MqttSinkConfig.of(broker.host(), broker.port());
    }

    @Override
    protected MqttMessage poisonItem(int n) {
        return MqttMessage.of(PublishPolicy.FORBIDDEN + topic, "message " + n, 1, false);
    }
}
