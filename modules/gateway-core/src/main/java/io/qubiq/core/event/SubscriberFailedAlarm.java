package io.qubiq.core.event;

import java.time.Instant;

/**
 * A tag-bus subscriber's delivery thread died of an {@code Error} (such as {@code OutOfMemoryError})
 * thrown by its consumer and is being restarted with backoff (raised), or the restarted thread has
 * delivered values normally again (cleared). Values that reach its queue meanwhile wait there, or
 * are dropped and counted when it is full.
 *
 * @param subscriber the subscriber's name ({@code historian}, {@code pipeline:p1}, ...)
 * @param error      what killed it, as {@code class: message}
 * @param failures   failures in a row without a normal delivery between them
 */
public record SubscriberFailedAlarm(String subscriber, boolean active, Instant at, String error, int failures)
        implements AlarmEvent {

    @Override
    public String key() {
        return "subscriber-failed/" + subscriber;
    }

    @Override
    public String source() {
        return "tag-bus";
    }

    @Override
    public AlarmSeverity severity() {
        return AlarmSeverity.CRITICAL;
    }

    @Override
    public String message() {
        return active
                ? "Tag-bus subscriber " + subscriber + " failed (" + error + "); restarting its delivery thread with"
                        + " backoff"
                : "Tag-bus subscriber " + subscriber + " delivers again after its restart";
    }
}
