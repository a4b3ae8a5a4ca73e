package io.qubiq.connector.mqtt;

/**
 * How a message payload carries a tag value: {@code plain} (the whole payload, UTF-8 text, is the
 * value) or {@code json} (a JSON document; the value, and optionally its timestamp and quality,
 * sit at configured paths).
 */
public enum PayloadFormat {
    PLAIN,
    JSON
}
