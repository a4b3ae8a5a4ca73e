package io.qubiq.core.event;

import java.util.Locale;

/**
 * Why data was discarded: one value per place in the gateway that can lose data (DESIGN.md rule
 * 9). {@link #label()} is the stable name used in the loss ledger, the REST API and the metric
 * {@code qubiq_data_lost_items_total{reason=...}}.
 */
public enum LossReason {
    /** A tag-bus subscriber's queue was full; the value never reached the historian or a pipeline. */
    TAG_BUS_OVERFLOW(false),
    /** A tag-bus subscriber's consumer threw for a batch of values; the subscriber went on without them. */
    SUBSCRIBER_FAILED(false),
    /** A drop-oldest buffer at its limit (or at the disk's critical reserve) discarded its oldest items. */
    DROP_OLDEST(false),
    /** A refuse-policy buffer at its limit turned items away; the producer could not keep them. */
    REFUSED(false),
    /** Records that failed their checks at recovery or on read, set aside in {@code corrupt/}. */
    BUFFER_DAMAGED(false),
    /** A quarantine entry that could not be read back, set aside in {@code corrupt/}. */
    QUARANTINE_DAMAGED(false),
    /** An operator dropped items from a quarantine. */
    OPERATOR_DROP(true),
    /** QuestDB refused historian rows that were then neither stored nor quarantined. */
    HISTORIAN_ROWS_REFUSED(false),
    /**
     * The device dropped values before sending them: an OPC UA server's monitored-item queue overflowed
     * (the value after the gap carries the Overflow bit). Counts flagged values, a lower bound.
     */
    DEVICE_QUEUE_OVERFLOW(false),
    /** A device message that could not be turned into a tag value. */
    MALFORMED_PAYLOAD(false),
    /**
     * A device message on a topic that would have created a new tag past its connection's limit of tags
     * made from wildcard subscriptions ({@code max_dynamic_tags}); refused, its value not kept.
     */
    DYNAMIC_TAG_LIMIT(false),
    /** A pipeline expression failed, so its output was not produced. */
    EXPRESSION_FAILED(false),
    /** A write failed because the disk was full; what it carried was not stored. */
    DISK_FULL(false),
    /**
     * An operator discarded an orphaned store-and-forward directory (a renamed or removed connection's
     * buffer and quarantine): every item it held, counted before it was deleted.
     */
    ORPHAN_DISCARDED(true),
    /** An operator lowered a channel's {@code max_bytes} below its backlog and chose to drop the oldest items. */
    MAX_BYTES_SHRUNK(true),
    /** An operator removed an outbound connection and chose to discard what its buffer held. */
    CONNECTION_REMOVED(true),
    /**
     * Values still queued for a tag-bus subscriber when it was closed: a pipeline removed or its trigger
     * changed while the gateway runs, or the gateway stopping. They never reached the historian or the
     * pipeline. Counted as asked for (the removal or the stop was), so it raises no alarm.
     */
    SUBSCRIBER_CLOSED(true);

    private final boolean operatorAction;

    LossReason(boolean operatorAction) {
        this.operatorAction = operatorAction;
    }

    /** True when somebody asked for this loss; every other loss raises an alarm. */
    public boolean operatorAction() {
        return operatorAction;
    }

    /** Lower-case stable name, such as {@code buffer_damaged}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The reason whose {@link #label()} is {@code label}, ignoring case. */
    public static java.util.Optional<LossReason> ofLabel(String label) {
        for (LossReason reason : values()) {
            if (reason.label().equalsIgnoreCase(label)) {
                return java.util.Optional.of(reason);
            }
        }
        return java.util.Optional.empty();
    }
}
