package io.qubiq.sink.mqtt;

import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.testkit.mqtt.Mosquitto;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The sink contract over MQTT 3.1.1 against mosquitto (skipped when it is not installed). MQTT
 * 3.1.1 has no reason codes, so the only refusal the sink can detect is a message larger than the
 * broker's maximum packet size, and only when {@code max_packet_bytes} tells it the limit: that is
 * the rejected item here (mosquitto's {@code max_packet_size} is the same {@value #MAX_PACKET}).
 */
class Mosquitto311SinkContractTest extends MqttSinkContract {

    static final int MAX_PACKET = 256;
    static Mosquitto mosquitto;

    @BeforeAll
    static void startBroker() {
        mosquitto = Mosquitto.startOrSkip(Mosquitto.Options.defaults().withMaxPacketBytes(MAX_PACKET));
    }

    @AfterAll
    static void stopBroker() {
        if (mosquitto != null) {
            mosquitto.close();
        }
    }

    @Override
    protected MqttSinkConfig config() {
        return MqttSinkConfig.of(mosquitto.host(), mosquitto.port()).withProtocol(MqttProtocol.MQTT_3_1_1).withMaxPacketBytes(MAX_PACKET);
    }

    @Override
    protected MqttMessage poisonItem(int n) {
        return MqttMessage.of(topic, "message " + n + " " + "x".repeat(MAX_PACKET), 1, false);
    }
}
