package io.qubiq.core.event;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One report of discarded data, for the loss ledger: where, how much, why and who.
 *
 * @param at when it was noticed
 * @param component the component that discarded it, such as {@code channel}, {@code tag-bus},
 *     {@code historian}, {@code pipeline}, {@code connector}
 * @param connection the outbound or device connection, pipeline or subscriber it concerns
 * @param tag the tag, when one tag is concerned
 * @param reason why
 * @param items how many items (tag values, rows, messages, buffered records); at least 1 unless
 *     only {@code bytes} are known
 * @param bytes how many bytes, 0 when not known
 * @param firstSequence the first buffer sequence concerned, 0 when none or not known
 * @param lastSequence the last buffer sequence concerned, 0 when none or not known
 * @param who the user, for an operator's action
 * @param detail one sentence for the operator (the file, the offset, the error)
 */
public record DataLoss(Instant at, String component, String connection, Optional<String> tag, LossReason reason,
                       long items, long bytes, long firstSequence, long lastSequence, Optional<String> who,
                       String detail) {

    public DataLoss {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(who, "who");
        Objects.requireNonNull(detail, "detail");
        if (items < 0 || bytes < 0 || items == 0 && bytes == 0) {
            throw new IllegalArgumentException("a loss needs a positive item or byte count: " + items + " items, "
                    + bytes + " bytes");
        }
        if (firstSequence < 0 || lastSequence < firstSequence) {
            throw new IllegalArgumentException("bad sequence range " + firstSequence + ".." + lastSequence);
        }
    }

    /** A loss nobody asked for, without a tag or sequence range. */
    public static DataLoss of(Instant at, String component, String connection, LossReason reason, long items,
                              long bytes, String detail) {
        return new DataLoss(at, component, connection, Optional.empty(), reason, items, bytes, 0, 0,
                Optional.empty(), detail);
    }

    /** This loss with the buffer sequence range it covered. */
    public DataLoss withSequences(long first, long last) {
        return new DataLoss(at, component, connection, tag, reason, items, bytes, first, last, who, detail);
    }

    /** This loss for one tag. */
    public DataLoss withTag(String tagPath) {
        return new DataLoss(at, component, connection, Optional.of(tagPath), reason, items, bytes, firstSequence,
                lastSequence, who, detail);
    }

    /** This loss as an operator's action. */
    public DataLoss by(String user) {
        return new DataLoss(at, component, connection, tag, reason, items, bytes, firstSequence, lastSequence,
                Optional.of(user), detail);
    }
}
