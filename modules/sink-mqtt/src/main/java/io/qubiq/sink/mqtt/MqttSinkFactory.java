package io.qubiq.sink.mqtt;

import io.qubiq.core.error.ConfigurationException;
import java.time.Clock;

/** Makes the MQTT sink and codec of one outbound connection from its configuration. */
public final class MqttSinkFactory {

    private final Clock clock;

    public MqttSinkFactory(Clock clock) {
        this.clock = clock;
    }

    public MqttSinkFactory() {
        this(Clock.systemUTC());
    }

    /**
     * @param id the outbound connection's id (the default MQTT client id is derived from it)
     * @throws ConfigurationException when the configuration cannot work (empty host, unknown protocol,
     *     a password without a user name)
     */
    public MqttSink create(String id, MqttSinkConfig config) throws ConfigurationException {
        return new MqttSink(id, config, clock);
    }

    /** The codec the channel stores this sink's messages with. */
    public MqttMessageCodec codec() {
        return new MqttMessageCodec();
    }
}
