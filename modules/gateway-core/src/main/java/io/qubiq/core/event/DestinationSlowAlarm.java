package io.qubiq.core.event;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A destination answers, but more slowly than its write timeout allows for a full batch: writes
 * were cut off by the timeout, so the channel now writes fewer items at a time (raised), or full
 * batches go through again (cleared). While raised the backlog drains at the destination's pace;
 * if items come in faster than that, the buffer fills.
 *
 * @param connection        the outbound connection
 * @param batchItems        items per write the channel has fallen back to
 * @param batchMaxItems     the configured {@code batch_max_items}
 * @param inBytesPerSecond  recent rate of bytes entering the channel
 * @param outBytesPerSecond recent rate of bytes delivered to the destination
 * @param timeToFull        at these rates, when the buffer reaches its limit; empty when it is not
 *                          filling
 */
public record DestinationSlowAlarm(String connection, boolean active, Instant at, int batchItems, int batchMaxItems,
                                   double inBytesPerSecond, double outBytesPerSecond, Optional<Duration> timeToFull)
        implements AlarmEvent {

    @Override
    public String key() {
        return "destination-slow/" + connection;
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
            return String.format("Destination %s keeps up again: writing full batches of %d items", connection,
                    batchMaxItems);
        }
        String eta = timeToFull.map(d -> "buffer full in about " + BufferPressureAlarm.humanize(d))
                .orElse("the buffer is not filling");
        return String.format("Destination %s is slower than its write timeout: writing %d items at a time instead"
                + " of %d; delivering %.0f B/s against %.0f B/s coming in; %s", connection, batchItems,
                batchMaxItems, outBytesPerSecond, inBytesPerSecond, eta);
    }
}
