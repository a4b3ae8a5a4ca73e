package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.sink.mqtt.MqttMessage;
import io.qubiq.sink.mqtt.MqttSinkFactory;
import java.time.Clock;
import java.util.Set;

/**
 * MQTT connections: {@code outbound.<id>.mqtt:}, written by the sink of {@code io.qubiq.sink.mqtt}.
 * Fresh messages matter more than old ones at the buffer's limit: it drops the oldest.
 */
final class MqttKind implements OutboundKind<OutboundConfig.Mqtt, OutputConfig.Mqtt, MqttMessage> {

    @Override
    public Class<OutboundConfig.Mqtt> configType() {
        return OutboundConfig.Mqtt.class;
    }

    @Override
    public Class<OutputConfig.Mqtt> outputType() {
        return OutputConfig.Mqtt.class;
    }

    @Override
    public Class<MqttMessage> itemType() {
        return MqttMessage.class;
    }

    @Override
    public Sink<MqttMessage> sink(String id, OutboundConfig.Mqtt config, Clock clock)
            throws ConfigurationException {
        return new MqttSinkFactory(clock).create(id, config.mqtt());
    }

    @Override
    public ItemCodec<MqttMessage> codec() {
        return new MqttSinkFactory().codec();
    }

    @Override
    public OverflowPolicy defaultOverflow() {
        return OverflowPolicy.DROP_OLDEST;
    }

    @Override
    public ItemMapper<MqttMessage> mapper(String key, OutputConfig.Mqtt output, ExpressionEngine engine,
                                          Set<String> variables) throws ExpressionException {
        return new MqttMessageMapper(key + ".mqtt", output.mqtt(), engine, variables);
    }

    @Override
    public String docs() {
        return "docs/sinks/mqtt.md";
    }
}
