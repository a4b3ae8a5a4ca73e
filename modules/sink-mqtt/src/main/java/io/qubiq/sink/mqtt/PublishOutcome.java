package io.qubiq.sink.mqtt;

/**
 * What became of one message of a batch, as far as the sink can tell. {@link FailureClassifier}
 * turns the outcomes of a batch into the one failure class the channel acts on.
 */
sealed interface PublishOutcome {

    /** Acknowledged: QoS 0 handed to the connection, QoS 1 PUBACK, QoS 2 PUBCOMP (all without error). */
    PublishOutcome ACKNOWLEDGED = new Acknowledged();

    record Acknowledged() implements PublishOutcome {
    }

    /** The broker answered with a failure reason code (MQTT 5 PUBACK or PUBREC, 0x80 and above). */
    record Refused(int reasonCode, String reason) implements PublishOutcome {
    }

    /** The PUBLISH packet would exceed the broker's maximum packet size; it was not sent. */
    record TooLarge(long packetBytes, long maxPacketBytes, String limitSource) implements PublishOutcome {
    }

    /** The client refused to send the message (it cannot be encoded); it was not sent. */
    record RejectedByClient(String reason) implements PublishOutcome {
    }

    /** The client was not connected, or the connection closed before the acknowledgement arrived. */
    record ConnectionLost(String reason) implements PublishOutcome {
    }

    /** Sent (or queued to send) and no verdict within {@code publish_timeout_ms}. */
    record Unanswered() implements PublishOutcome {
    }

    /** The client failed in an unforeseen way after the message may have been sent. */
    record Failed(String reason) implements PublishOutcome {
    }
}
