package io.qubiq.demoplant;

import io.qubiq.core.tag.DataType;
import java.util.Optional;

/**
 * One topic the demo plant publishes to its MQTT broker, described for whoever builds the MQTT
 * connection that reads it (the application's {@code demo} command, the docs). Immutable.
 *
 * @param topic           the topic, such as {@code demo-plant/meter/power}; one JSON message per publish
 * @param tagPath         the tag path the demo's wildcard subscription maps it to, such as {@code demo/meter/power}
 * @param gatewayType     the type to read the value as ({@code float64} for every topic)
 * @param commandTopic    where a write is published to, for the topics that accept writes
 * @param engineeringUnit the unit, such as {@code kW}; also sent in the payload's {@code unit} field
 * @param meaning         one sentence for docs and the console
 */
public record TopicInfo(String topic, String tagPath, DataType gatewayType, Optional<String> commandTopic,
                        Optional<String> engineeringUnit, String meaning) {
}
