package io.qubiq.storeforward;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.event.ForwarderFailedAlarm;
import io.qubiq.core.lifecycle.SupervisedThread;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a channel does when its forwarder thread dies (anything thrown out of the forwarder's loop:
 * a sink or codec bug the delivery did not classify, an {@link Error} such as
 * {@code OutOfMemoryError}): logs it with its stack, records it as the channel's last error, and
 * raises the {@code forwarder_failed} alarm ({@link ForwarderFailedAlarm}) on the first failure of a
 * run; the {@link SupervisedThread} restarts the forwarder with backoff. Once the restarted forwarder
 * has delivered normally the alarm is cleared. While it is raised the channel shows
 * {@link ChannelState#FAILED} and {@code /health} lists it as degraded.
 *
 * <p>Buffered items are never lost to a failure: they stay in the buffer from the last
 * acknowledgement, and the restarted forwarder delivers them in order.
 *
 * <p>Threading: called on the forwarder's threads, one at a time.
 */
final class ForwarderSupervision implements SupervisedThread.Listener {

    private static final Logger log = LoggerFactory.getLogger(ForwarderSupervision.class);

    private final String connection;
    private final ChannelCounters counters;
    private final EventPublisher events;
    private final Clock clock;
    private volatile String lastFailure = "";

    ForwarderSupervision(String connection, ChannelCounters counters, EventPublisher events, Clock clock) {
        this.connection = connection;
        this.counters = counters;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public void failed(Throwable error, int consecutiveFailures, long restartInMs) {
        String what = DeliveryAttempt.describe(error);
        lastFailure = what;
        log.error("Forwarder of {} failed ({} in a row): {}; restarting it in {} ms, buffered items are kept",
                connection, consecutiveFailures, what, restartInMs, error);
        counters.error("forwarder failed: " + what, clock.instant());
        if (consecutiveFailures == 1) {
            events.alarm(new ForwarderFailedAlarm(connection, true, clock.instant(), what, consecutiveFailures));
        }
    }

    @Override
    public void recovered() {
        log.info("Forwarder of {} delivers normally again after its restart", connection);
        events.alarm(new ForwarderFailedAlarm(connection, false, clock.instant(), lastFailure, 0));
    }

    /** What killed the forwarder last, as {@code class: message}. */
    String lastFailure() {
        return lastFailure;
    }
}
