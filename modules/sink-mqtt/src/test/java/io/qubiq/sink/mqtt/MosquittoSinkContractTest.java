package io.qubiq.sink.mqtt;

import io.qubiq.testkit.mqtt.Mosquitto;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The sink contract against Debian's mosquitto over MQTT 5 (skipped when mosquitto is not
 * installed). The rejected item is a publish to a topic its ACL denies: mosquitto answers it with
 * PUBACK reason code NOT_AUTHORIZED.
 */
class MosquittoSinkContractTest extends MqttSinkContract {

    static Mosquitto mosquitto;

    @BeforeAll
    static void startBroker() {
        mosquitto = Mosquitto.startOrSkip(Mosquitto.Options.defaults().withDeniedTopic("forbidden/#"));
    }

    @AfterAll
    static void stopBroker() {
        if (mosquitto != null) {
            mosquitto.close();
        }
    }

    @Override
    protected MqttSinkConfig config() {
        return MqttSinkConfig.of(mosquitto.host(), mosquitto.port());
    }

    @Override
    protected MqttMessage poisonItem(int n) {
        return MqttMessage.of("forbidden/" + topic, "message " + n, 1, false);
    }
}
