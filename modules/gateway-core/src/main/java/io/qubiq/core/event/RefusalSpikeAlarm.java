package io.qubiq.core.event;

import java.time.Instant;

/**
 * More requests without accepted credentials were refused in one minute (failed or throttled sign-ins,
 * refused setup claims) than anyone mistyping would cause: someone may be guessing passwords. Raised
 * during the minute that passes the threshold; cleared after the first minute that stays under it.
 *
 * @param refusals how many were refused in the minute that raised (or, when cleared, last raised) it
 * @param perMinuteLimit the threshold
 */
public record RefusalSpikeAlarm(boolean active, Instant at, long refusals, long perMinuteLimit)
        implements AlarmEvent {

    @Override
    public String key() {
        return "refusal-spike";
    }

    @Override
    public String source() {
        return "auth";
    }

    @Override
    public AlarmSeverity severity() {
        return AlarmSeverity.WARNING;
    }

    @Override
    public String message() {
        return active
                ? "More than " + perMinuteLimit + " sign-ins or setup claims refused within a minute: someone may be"
                + " guessing passwords; the audit journal's refused sign-ins say from where"
                : "Refused sign-ins are back under " + perMinuteLimit + " a minute after " + refusals + " in a minute";
    }
}
