package io.qubiq.pipeline.config;

import io.qubiq.core.config.Doc;

/** Messages arriving on an MQTT device connection, by topic filter. */
@Doc("Run the pipeline for each message an MQTT device connection receives on a topic filter.")
public record MqttTriggerConfig(
        @Doc("The id of an MQTT connection under devices.")
        String connection,

        @Doc("An MQTT topic filter (+ and # wildcards allowed), such as plant/+/events.")
        String topic) {
}
