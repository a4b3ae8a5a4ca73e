package io.qubiq.app.outbound;

import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.config.MqttOutputMapping;
import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Functions;
import io.qubiq.pipeline.expr.Scope;
import io.qubiq.pipeline.expr.Template;
import io.qubiq.sink.mqtt.MqttMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A pipeline event as an MQTT message: a rendered topic, a payload (maps and lists as JSON), QoS, retain. */
public final class MqttMessageMapper implements ItemMapper<MqttMessage> {

    private final String key;
    private final Template topic;
    private final Expression payload;
    private final Functions functions;
    private final int qos;
    private final boolean retain;

    public MqttMessageMapper(String key, MqttOutputMapping mapping, ExpressionEngine engine, Set<String> variables)
            throws ExpressionException {
        this.key = key;
        this.topic = engine.compileTemplate(mapping.topic(), variables);
        this.payload = engine.compile(mapping.payload(), variables);
        this.functions = engine.functions();
        this.qos = mapping.qos();
        this.retain = mapping.retain();
    }

    @Override
    public MqttMessage map(Scope scope, String itemId) throws ExpressionException {
        Object value = payload.evaluate(scope);
        String text = value instanceof Map<?, ?> || value instanceof List<?>
                ? MappedValues.json(value, key + ".payload")
                : value instanceof String string ? string : functions.str(value);
        try {
            return new MqttMessage(topic.render(scope, functions), text.getBytes(StandardCharsets.UTF_8), qos, retain);
        } catch (IllegalArgumentException e) {
            throw new ExpressionException(key + ": " + e.getMessage(), e);
        }
    }
}
