package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What is known about one quarantined item, without the item's bytes.
 *
 * @param id           unique for the life of the channel: the buffer sequence the item had when it
 *                     was quarantined (buffer sequences are never reused)
 * @param failureClass why it was set aside: {@code PERMANENT} (the destination rejected it) or
 *                     {@code UNKNOWN_OUTCOME} (attempts exhausted without a verdict)
 * @param reason       a short sentence for the operator
 * @param error        the destination's or driver's error text
 * @param attempts     delivery attempts made
 * @param firstFailure when the first attempt failed
 * @param lastFailure  when the last attempt failed
 * @param itemBytes    size of the stored item
 * @param previousIds  the ids this item had in earlier stays in this quarantine, oldest first: an
 *                     item an operator retried that failed again keeps its history, and
 *                     {@code attempts} and {@code firstFailure} count from its first stay
 */
public record QuarantineEntry(long id, FailureClass failureClass, String reason, String error, int attempts,
                              Instant firstFailure, Instant lastFailure, int itemBytes, List<Long> previousIds) {

    /** An item in the quarantine for the first time. */
    public QuarantineEntry(long id, FailureClass failureClass, String reason, String error, int attempts,
                           Instant firstFailure, Instant lastFailure, int itemBytes) {
        this(id, failureClass, reason, error, attempts, firstFailure, lastFailure, itemBytes, List.of());
    }

    public QuarantineEntry {
        Objects.requireNonNull(failureClass, "failureClass");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(firstFailure, "firstFailure");
        Objects.requireNonNull(lastFailure, "lastFailure");
        if (id <= 0) {
            throw new IllegalArgumentException("quarantine id must be positive, was " + id);
        }
        previousIds = List.copyOf(Objects.requireNonNull(previousIds, "previousIds"));
        if (attempts < 0 || itemBytes < 0) {
            throw new IllegalArgumentException("attempts and itemBytes must not be negative");
        }
    }
}
