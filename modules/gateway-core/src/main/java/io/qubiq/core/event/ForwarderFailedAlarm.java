package io.qubiq.core.event;

import java.time.Instant;

/**
 * A channel's forwarder thread died of an unexpected throwable (a bug in a sink or codec, or an
 * {@code Error} such as {@code OutOfMemoryError}) and is being restarted with backoff (raised), or the
 * restarted forwarder has delivered normally again (cleared). Buffered items stay on disk meanwhile;
 * while raised, nothing is delivered to the destination.
 *
 * @param connection the outbound connection
 * @param error      what killed it, as {@code class: message}
 * @param failures   failures in a row without a normal delivery between them
 */
public record ForwarderFailedAlarm(String connection, boolean active, Instant at, String error, int failures)
        implements AlarmEvent {

    @Override
    public String key() {
        return "forwarder-failed/" + connection;
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
                ? "Forwarder of " + connection + " failed (" + error + "); restarting it with backoff, buffered items"
                        + " are kept"
                : "Forwarder of " + connection + " delivers again after its restart";
    }
}
