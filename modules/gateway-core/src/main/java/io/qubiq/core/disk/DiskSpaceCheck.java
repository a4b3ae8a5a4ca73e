package io.qubiq.core.disk;

import io.qubiq.core.event.DiskSpaceAlarm;
import io.qubiq.core.event.EventPublisher;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * The free-space state of one watched directory: each sample is classified against the warning and
 * critical thresholds, and each change of state is published as a {@link DiskSpaceAlarm}: raised on
 * entering WARNING or CRITICAL (so going from WARNING to CRITICAL raises it again, now critical, and
 * back from CRITICAL to WARNING lowers its severity), cleared only on coming back to OK. A sample
 * that repeats the state publishes nothing.
 *
 * <p><b>Threading.</b> {@link #update} is called by one thread, the watcher's; {@link #state()} and
 * {@link #lastSample()} may be read from any thread.
 */
public final class DiskSpaceCheck {

    /** A change of state, for the caller to log. */
    public record Change(DiskState from, DiskState to, DiskSpaceAlarm alarm) {
    }

    private final String path;
    private final FreeSpaceThreshold warning;
    private final FreeSpaceThreshold critical;
    private final EventPublisher events;
    private final Clock clock;
    private volatile DiskState state = DiskState.OK;
    private volatile DiskSpace lastSample;

    public DiskSpaceCheck(String path, FreeSpaceThreshold warning, FreeSpaceThreshold critical,
                          EventPublisher events, Clock clock) {
        this.path = Objects.requireNonNull(path, "path");
        this.warning = Objects.requireNonNull(warning, "warning");
        this.critical = Objects.requireNonNull(critical, "critical");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The state {@code space} is in by these thresholds. */
    public DiskState classify(DiskSpace space) {
        if (critical.reached(space)) {
            return DiskState.CRITICAL;
        }
        return warning.reached(space) ? DiskState.WARNING : DiskState.OK;
    }

    /** Takes a new sample; publishes and returns the change when the state changed. */
    public Optional<Change> update(DiskSpace space) {
        lastSample = space;
        DiskState next = classify(space);
        DiskState previous = state;
        if (next == previous) {
            return Optional.empty();
        }
        state = next;
        DiskSpaceAlarm alarm = new DiskSpaceAlarm(path, next != DiskState.OK, next == DiskState.CRITICAL,
                clock.instant(), space.freeBytes(), space.totalBytes());
        events.alarm(alarm);
        return Optional.of(new Change(previous, next, alarm));
    }

    public String path() {
        return path;
    }

    public DiskState state() {
        return state;
    }

    /** The last sample taken; empty before the first. */
    public Optional<DiskSpace> lastSample() {
        return Optional.ofNullable(lastSample);
    }
}
