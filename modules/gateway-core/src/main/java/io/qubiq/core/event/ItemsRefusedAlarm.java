package io.qubiq.core.event;

import java.time.Instant;

/**
 * A buffer with the refuse policy at its limit turned new items away: the producer was told and
 * the items are lost (each refusal is also in the loss ledger). Raised on the first refusal of an
 * episode and cleared when the buffer takes items again or falls to its low-water mark; the count
 * is this episode's refusals at the time of publication.
 */
public record ItemsRefusedAlarm(String connection, boolean active, Instant at, long refusedInEpisode,
                                long refusedTotal) implements AlarmEvent {

    @Override
    public String key() {
        return "items-refused/" + connection;
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
                ? "Buffer of " + connection + " is full and refusing new items: " + refusedInEpisode
                        + " refused so far (" + refusedTotal + " since start)"
                : "Buffer of " + connection + " takes items again after refusing " + refusedInEpisode;
    }
}
