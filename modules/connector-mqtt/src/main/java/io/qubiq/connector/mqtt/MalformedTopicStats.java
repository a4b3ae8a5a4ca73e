package io.qubiq.connector.mqtt;

import java.time.Instant;

/**
 * Malformed messages on one topic since the connector started.
 *
 * @param count messages that could not become a tag value
 * @param lastError why the most recent one was refused
 * @param lastAt when it arrived
 */
public record MalformedTopicStats(long count, String lastError, Instant lastAt) {
}
