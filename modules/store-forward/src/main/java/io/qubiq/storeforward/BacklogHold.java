package io.qubiq.storeforward;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Start-up priority for a channel that starts with a backlog: its forwarder leaves the backlog alone
 * until the gateway's start-up has settled ({@code settled}: the device connections collect or
 * failed their first attempt), for at most {@code atMost}. On a small machine the drain of a large
 * backlog takes the CPU the device connections need to connect and subscribe (issue 20: a 1 GiB
 * backlog draining into QuestDB doubled the OPC UA session's set-up time); the data waits a few
 * seconds longer, nothing else changes.
 *
 * <p><b>What it holds.</b> Only the delivery of what was buffered before the start, and only when
 * there was a backlog: a channel that starts empty delivers at once. While held, the latch stays
 * closed (it is closed whenever something is buffered), so producers append behind the backlog in
 * order as at any other time; the buffer's limits and overflow policy apply as always.
 *
 * <p><b>Ends</b> once {@code settled} answers true or {@code atMost} has passed since {@link #arm},
 * whichever comes first, and never starts again (a forwarder restarted later by a live change or
 * its supervision is not held). Both moments are logged.
 *
 * <p>Threading: {@link #arm} on the lifecycle thread before the forwarder starts; {@link #held} on
 * the forwarder's thread. {@code settled} must not block or take a lock the channel's stop holds.
 */
final class BacklogHold {

    private static final Logger log = LoggerFactory.getLogger("io.qubiq.storeforward.StoreForwardChannel");

    private final String connection;
    private final BooleanSupplier settled;
    private final Duration atMost;
    private final LongSupplier nanoTime;
    private volatile long deadlineNanos;
    private volatile long armedNanos;
    private volatile boolean armed;

    BacklogHold(String connection, BooleanSupplier settled, Duration atMost, LongSupplier nanoTime) {
        this.connection = connection;
        this.settled = settled;
        this.atMost = atMost;
        this.nanoTime = nanoTime;
    }

    /** The channel starts with a backlog: hold its delivery from now. */
    void arm() {
        armedNanos = nanoTime.getAsLong();
        deadlineNanos = armedNanos + atMost.toNanos();
        armed = true;
        log.info("Channel {}: delivering the backlog once the device connections collect (at most {} ms), so"
                + " that start-up has the CPU", connection, atMost.toMillis());
    }

    /** Whether the forwarder must leave the backlog alone now; ends the hold for good when it is over. */
    boolean held() {
        if (!armed) {
            return false;
        }
        boolean collecting = settled.getAsBoolean();
        long now = nanoTime.getAsLong();
        if (!collecting && now - deadlineNanos < 0) {
            return true;
        }
        armed = false;
        log.info("Channel {}: delivering the backlog now ({} after {} ms)", connection,
                collecting ? "start-up settled" : "the hold's limit passed", (now - armedNanos) / 1_000_000);
        return false;
    }
}
