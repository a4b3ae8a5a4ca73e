package io.qubiq.core.event;

import java.time.Instant;

/**
 * A drop-oldest buffer at its limit discarded its oldest items to accept new ones. Raised on the
 * first drop of an episode and cleared when the buffer is back below its low-water mark; the count
 * is the running total of this episode.
 */
public record ItemsDroppedAlarm(String connection, boolean active, Instant at, long droppedInEpisode,
                                long droppedTotal) implements AlarmEvent {

    @Override
    public String key() {
        return "items-dropped/" + connection;
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
                ? "Buffer of " + connection + " is full and dropping its oldest items: " + droppedInEpisode
                        + " dropped so far (" + droppedTotal + " since start)"
                : "Buffer of " + connection + " stopped dropping items after " + droppedInEpisode + " drops";
    }
}
