package io.qubiq.sink.mqtt;

/** The MQTT protocol version of an outbound connection, spelled as device connections spell it. */
public enum MqttVersion {
    /** MQTT 3.1.1: no reason codes, so a broker's refusal of a publish cannot be seen. */
    MQTT_3_1_1,
    /** MQTT 5: reason codes in PUBACK and PUBREC, and the broker's maximum packet size in CONNACK. */
    MQTT_5
}
