package io.qubiq.pipeline.trigger;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Raw messages of the gateway's MQTT device connections, for pipeline triggers. Implemented by the
 * application over the MQTT connector.
 */
public interface DeviceMessages {

    /** One message: its topic, its payload as text, the payload parsed as JSON when it is JSON. */
    record DeviceMessage(String topic, String payload, Optional<Object> json, Instant received) {
    }

    /**
     * Delivers every message of {@code connection} whose topic matches {@code topicFilter} to
     * {@code listener}, from one thread at a time, until the returned handle is closed.
     *
     * @throws IllegalArgumentException when {@code connection} is not an MQTT device connection
     */
    AutoCloseable listen(String connection, String topicFilter, Consumer<DeviceMessage> listener);
}
