package io.qubiq.losses;

import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * One line of the loss ledger: every loss of one kind from one source within one minute, summed.
 * The kind is the {@link Key}: component, connection, tag, reason, who and the minute.
 *
 * @param minute the start of the minute (UTC) the losses were noticed in
 * @param firstAt when the first of them was noticed
 * @param lastAt when the last of them was noticed
 * @param items items lost, summed
 * @param bytes bytes lost, summed (0 when not known)
 * @param firstSequence the lowest buffer sequence concerned, 0 when none is known
 * @param lastSequence the highest buffer sequence concerned, 0 when none is known
 * @param reports how many {@link DataLoss} reports were summed into this entry
 * @param detail the latest report's sentence for the operator
 */
public record LossEntry(Instant minute, Instant firstAt, Instant lastAt, String component, String connection,
                        Optional<String> tag, LossReason reason, long items, long bytes, long firstSequence,
                        long lastSequence, Optional<String> who, long reports, String detail) {

    /** What entries are summed by: the same source, reason and actor in the same minute. */
    public record Key(Instant minute, String component, String connection, Optional<String> tag, LossReason reason,
                      Optional<String> who) {
    }

    public LossEntry {
        Objects.requireNonNull(minute, "minute");
        Objects.requireNonNull(firstAt, "firstAt");
        Objects.requireNonNull(lastAt, "lastAt");
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(who, "who");
        Objects.requireNonNull(detail, "detail");
    }

    /** The entry for one report. */
    public static LossEntry of(DataLoss loss) {
        return new LossEntry(minuteOf(loss.at()), loss.at(), loss.at(), loss.component(), loss.connection(),
                loss.tag(), loss.reason(), loss.items(), loss.bytes(), loss.firstSequence(), loss.lastSequence(),
                loss.who(), 1, loss.detail());
    }

    static Instant minuteOf(Instant at) {
        return at.truncatedTo(ChronoUnit.MINUTES);
    }

    public Key key() {
        return new Key(minute, component, connection, tag, reason, who);
    }

    /** This entry without its tag: how entries are summed once too many distinct tags are pending. */
    LossEntry withoutTag() {
        return new LossEntry(minute, firstAt, lastAt, component, connection, Optional.empty(), reason, items, bytes,
                firstSequence, lastSequence, who, reports, detail);
    }

    /** The sum of this entry and a later one of the same {@link Key}. */
    public LossEntry plus(LossEntry other) {
        boolean otherIsLater = !other.lastAt.isBefore(lastAt);
        return new LossEntry(minute, min(firstAt, other.firstAt), otherIsLater ? other.lastAt : lastAt, component,
                connection, tag, reason, items + other.items, bytes + other.bytes,
                lowestKnown(firstSequence, other.firstSequence), Math.max(lastSequence, other.lastSequence), who,
                reports + other.reports, otherIsLater ? other.detail : detail);
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /** 0 means "not known", so it never wins. */
    private static long lowestKnown(long a, long b) {
        if (a == 0) {
            return b;
        }
        return b == 0 ? a : Math.min(a, b);
    }
}
