package io.qubiq.pipeline.trigger;

import io.qubiq.core.tag.Custody;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BiConsumer;
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

    /**
     * As {@link #listen}, and each message comes with its custody (a share of a QoS 1/2 message's
     * receipt, {@link Custody#NONE} otherwise), which the listener releases once what it made of the
     * message is buffered, delivered or accounted for; the broker is acknowledged only then. This
     * default, for sources that cannot redeliver, gives {@link Custody#NONE}.
     */
    default AutoCloseable listenKeeping(String connection, String topicFilter,
                                        BiConsumer<DeviceMessage, Custody> listener) {
        return listen(connection, topicFilter, message -> listener.accept(message, Custody.NONE));
    }
}
