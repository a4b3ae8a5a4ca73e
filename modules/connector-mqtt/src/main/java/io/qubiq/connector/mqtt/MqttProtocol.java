package io.qubiq.connector.mqtt;

/** The MQTT protocol version spoken to the broker, as configuration spells it. */
public enum MqttProtocol {
    MQTT_3_1_1,
    MQTT_5
}
