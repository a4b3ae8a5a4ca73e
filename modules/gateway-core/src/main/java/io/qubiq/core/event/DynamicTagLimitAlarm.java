package io.qubiq.core.event;

import java.time.Instant;

/**
 * A device connection reached its limit of tags created from wildcard subscriptions: messages on
 * topics that would make a new tag are refused (each one counted and in the loss ledger as
 * {@link LossReason#DYNAMIC_TAG_LIMIT}), while the tags it already has keep their values. Raised at
 * the first refusal; cleared when the connection stops (a restart with a higher limit, say), since its
 * tags stay until then.
 *
 * @param connection the device connection
 * @param limit its {@code max_dynamic_tags}
 * @param refused messages refused so far when it was published
 */
public record DynamicTagLimitAlarm(String connection, boolean active, Instant at, long limit, long refused)
        implements AlarmEvent {

    @Override
    public String key() {
        return "dynamic-tag-limit/" + connection;
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
        return active
                ? "Device connection " + connection + " reached its limit of " + limit + " tags from wildcard"
                        + " subscriptions (max_dynamic_tags): messages for new topics are refused and counted ("
                        + refused + " so far). Check what publishes them, or raise max_dynamic_tags"
                : "Device connection " + connection + " stopped; " + refused + " message(s) for new topics were"
                        + " refused at its limit of " + limit + " tags (max_dynamic_tags)";
    }
}
