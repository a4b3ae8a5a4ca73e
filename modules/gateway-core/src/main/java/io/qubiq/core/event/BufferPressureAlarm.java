package io.qubiq.core.event;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A store-and-forward buffer crossed its high-water mark (raised) or fell back to its low-water
 * mark (cleared). While raised it is published again, under the same key, as the fill moves, so its
 * figures are current.
 *
 * @param connection       the outbound connection whose buffer it is
 * @param fillPercent      used bytes as a percentage of the limit
 * @param usedBytes        bytes buffered
 * @param maxBytes         the buffer's limit
 * @param inBytesPerSecond recent rate of bytes entering the buffer
 * @param outBytesPerSecond recent rate of bytes delivered out of it
 * @param timeToFull       at the fill's growth over the last seconds, when the buffer reaches its
 *                         limit; empty when it is not filling
 */
public record BufferPressureAlarm(String connection, boolean active, Instant at, double fillPercent, long usedBytes,
                                  long maxBytes, double inBytesPerSecond, double outBytesPerSecond,
                                  Optional<Duration> timeToFull) implements AlarmEvent {

    @Override
    public String key() {
        return "buffer-pressure/" + connection;
    }

    @Override
    public String source() {
        return connection;
    }

    @Override
    public AlarmSeverity severity() {
        return AlarmSeverity.WARNING;
    }

    @Override
    public String message() {
        if (!active) {
            return String.format("Buffer of %s back to %.0f %% (%d of %d bytes)", connection, fillPercent,
                    usedBytes, maxBytes);
        }
        String eta = timeToFull.map(d -> "full in about " + humanize(d)).orElse("not filling at the moment");
        return String.format("Buffer of %s is %.0f %% full (%d of %d bytes; in %.0f B/s, out %.0f B/s; %s)",
                connection, fillPercent, usedBytes, maxBytes, inBytesPerSecond, outBytesPerSecond, eta);
    }

    static String humanize(Duration d) {
        long s = d.toSeconds();
        if (s < 120) {
            return s + " s";
        }
        if (s < 7200) {
            return (s / 60) + " min";
        }
        return (s / 3600) + " h";
    }
}
