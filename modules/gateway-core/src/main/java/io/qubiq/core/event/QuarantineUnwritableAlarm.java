package io.qubiq.core.event;

import java.time.Instant;

/**
 * A connection's quarantine could not store an item that failed permanently: the write failed (a
 * full disk above all, {@code diskFull}), not the quarantine's byte limit. The forwarder holds the
 * item at the head of the buffer, where it stays (nothing is lost), and tries again every few
 * seconds; delivery for this connection is stopped until a write succeeds.
 *
 * @param problem what failed, with the path and the operating system's words
 */
public record QuarantineUnwritableAlarm(String connection, boolean active, Instant at, boolean diskFull,
                                        String problem) implements AlarmEvent {

    @Override
    public String key() {
        return "quarantine-unwritable/" + connection;
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
        if (!active) {
            return "Quarantine of " + connection + " can be written again; delivery resumed";
        }
        return (diskFull ? "Disk full: the quarantine of " + connection + " cannot store a rejected item"
                : "The quarantine of " + connection + " cannot store a rejected item")
                + " (" + problem + "); delivery is stopped and the item stays in the buffer until the write"
                + " succeeds" + (diskFull ? ": free disk space" : ": check the disk and the data directory");
    }
}
