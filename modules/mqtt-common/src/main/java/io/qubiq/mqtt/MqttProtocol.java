package io.qubiq.mqtt;

/**
 * The MQTT protocol version spoken to a broker. Configuration spells it {@code protocol: mqtt_3_1_1}
 * or {@code protocol: mqtt_5}, for device connections and outbound connections alike.
 *
 * <p>The key's default is declared by each configuration record, not here, and differs on purpose:
 * a device connection defaults to {@code mqtt_3_1_1}, an outbound connection to {@code mqtt_5}
 * (only MQTT 5 reports a refused publish). Both are documented and existing files rely on them.
 */
public enum MqttProtocol {
    /** MQTT 3.1.1: no reason codes, so a broker's refusal of a publish cannot be seen. */
    MQTT_3_1_1,
    /** MQTT 5: reason codes in PUBACK and PUBREC, and the broker's maximum packet size in CONNACK. */
    MQTT_5
}
