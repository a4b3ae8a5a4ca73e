package io.qubiq.connector.mqtt;

import java.util.Map;

/**
 * Counters of one MQTT connection since it started.
 *
 * @param valuesReceived messages turned into tag values and published
 * @param malformedPayloads messages that could not become a tag value (all topics)
 * @param malformedByTopic the same, per topic, with the last error (at most {@value
 *     MalformedPayloadCounter#MAX_TOPICS} topics; further ones are counted under {@value
 *     MalformedPayloadCounter#OTHER_TOPICS})
 * @param unmatchedMessages messages on a topic no configured subscription matches (left over in a
 *     persistent session, say)
 * @param reconnects times the connection was re-established after it dropped
 * @param resubscribes times the subscriptions were sent again because the broker had no session
 * @param errors failed connection attempts, dropped connections and refused or failed subscriptions
 * @param disconnects times an established connection dropped (a disconnect loop shows here first)
 */
public record MqttStats(long valuesReceived, long malformedPayloads, Map<String, MalformedTopicStats> malformedByTopic,
                        long unmatchedMessages, long reconnects, long resubscribes, long errors, long disconnects) {

    public MqttStats {
        malformedByTopic = Map.copyOf(malformedByTopic);
    }
}
