package io.qubiq.core.event;

import java.time.Instant;

/**
 * A connection's quarantine reached its byte limit, so an item that failed permanently cannot be
 * set aside and the forwarder holds it at the head of the buffer: delivery for this connection is
 * stopped until an operator retries or drops quarantined items.
 */
public record QuarantineFullAlarm(String connection, boolean active, Instant at, long usedBytes, long maxBytes)
        implements AlarmEvent {

    @Override
    public String key() {
        return "quarantine-full/" + connection;
    }

    @Override
    public String source() {
        return connection;
    }

    @Override
    public AlarmSeverity severity() {
        return AlarmSeverity.CRITICAL;
    }

    @Override
    public String message() {
        return active
                ? "Quarantine of " + connection + " is full (" + usedBytes + " of " + maxBytes
                        + " bytes): delivery is stopped until quarantined items are retried or dropped"
                : "Quarantine of " + connection + " has room again; delivery resumed";
    }
}
