package io.qubiq.connector.mqtt;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One configured subscription, compiled: its topic filter and tag template ({@link TopicTemplate})
 * and its payload format ({@link PayloadDecoder}). Immutable; thread-safe.
 */
final class SubscriptionRoute {

    private final MqttSubscriptionConfig config;
    private final TopicTemplate template;
    private final PayloadDecoder decoder;

    SubscriptionRoute(MqttSubscriptionConfig config) {
        this.config = config;
        this.template = new TopicTemplate(config.topic(), config.tag());
        this.decoder = new PayloadDecoder(config);
    }

    MqttSubscriptionConfig config() {
        return config;
    }

    /** Whether {@code topic} is one of the topics this subscription's filter matches. */
    Optional<List<String>> match(String topic) {
        return template.match(topic);
    }

    /** The tag value a message on {@code topic} (which {@link #match}ed, giving {@code captured}) carries. */
    TagValue decode(List<String> captured, byte[] payload, Instant receivedAt) throws MalformedPayloadException {
        TopicTemplate.Resolution resolution = template.resolve(captured);
        TagPath tag = resolution.tag().orElseThrow(() -> new MalformedPayloadException(resolution.problem()));
        return decoder.decode(tag, payload, receivedAt);
    }

    /** The tag of a subscription without wildcards, known before any message arrives. */
    Optional<TagPath> fixedTag() {
        return template.fixedTag();
    }
}
