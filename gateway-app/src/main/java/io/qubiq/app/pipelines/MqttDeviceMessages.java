package io.qubiq.app.pipelines;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.connector.mqtt.MqttConnector;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.tag.Custody;
import io.qubiq.pipeline.trigger.DeviceMessages;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Pipeline MQTT triggers over the gateway's MQTT device connections: a message tap on the
 * connector, the payload as UTF-8 text and, when it parses, as JSON (objects become maps, arrays
 * lists). Taps are added while the pipelines start, before the device connections do.
 */
public final class MqttDeviceMessages implements DeviceMessages {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, MqttConnector> connectors;
    private final Clock clock;

    /**
     * @param connectors the device connections whose kind triggers pipelines, by id; each must be an
     *                   MQTT connector (the one kind that does today)
     * @throws IllegalArgumentException when one is not
     */
    public MqttDeviceMessages(Map<String, ? extends DeviceConnector> connectors, Clock clock) {
        Map<String, MqttConnector> mqtt = new LinkedHashMap<>();
        connectors.forEach((id, connector) -> {
            if (!(connector instanceof MqttConnector typed)) {
                throw new IllegalArgumentException("device connection " + id + " triggers pipelines but is not an"
                        + " MQTT connection; only MQTT messages can trigger pipelines");
            }
            mqtt.put(id, typed);
        });
        this.connectors = Map.copyOf(mqtt);
        this.clock = clock;
    }

    @Override
    public AutoCloseable listen(String connection, String topicFilter, Consumer<DeviceMessage> listener) {
        MqttConnector connector = connectors.get(connection);
        if (connector == null) {
            throw new IllegalArgumentException("no MQTT device connection " + connection);
        }
        return connector.tap(topicFilter, (topic, payload) -> listener.accept(message(topic, payload)));
    }

    /** The pipeline's queue holds each QoS 1/2 message's custody until its outputs took the items. */
    @Override
    public AutoCloseable listenKeeping(String connection, String topicFilter,
                                       BiConsumer<DeviceMessage, Custody> listener) {
        MqttConnector connector = connectors.get(connection);
        if (connector == null) {
            throw new IllegalArgumentException("no MQTT device connection " + connection);
        }
        return connector.tap(topicFilter, (MqttConnector.KeepingListener) (topic, payload, custody) ->
                listener.accept(message(topic, payload), custody));
    }

    private DeviceMessage message(String topic, byte[] payload) {
        return message(topic, payload, clock.instant());
    }

    /** A message as a trigger sees it: the payload as text, and parsed when it is a JSON object or array. */
    static DeviceMessage message(String topic, byte[] payload, java.time.Instant received) {
        return new DeviceMessage(topic, new String(payload, StandardCharsets.UTF_8), json(payload), received);
    }

    private static Optional<Object> json(byte[] payload) {
        int first = 0;
        while (first < payload.length && Character.isWhitespace(payload[first])) {
            first++;
        }
        if (first == payload.length || (payload[first] != '{' && payload[first] != '[')) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(JSON.readValue(payload, Object.class));
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }
}
