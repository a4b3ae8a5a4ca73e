package io.qubiq.core.error;

import java.util.List;

/**
 * The destination rejected data: a constraint, schema or type error that retrying cannot fix.
 * When the sink knows which items of the batch were at fault it lists them in {@link #rejected()}
 * (indexes into the batch it was given); the caller quarantines exactly those and delivers the
 * rest. An empty list means "somewhere in this batch": the caller isolates the culprit itself,
 * by bisecting.
 *
 * <p>By default nothing of the batch was written (a rolled-back transaction), so the caller writes
 * the other items again. A sink that wrote every item but the rejected ones (an unordered bulk
 * insert, separate publishes) says so with {@link #partial}: the caller then only quarantines.
 */
public final class PermanentException extends GatewayException {

    /** One rejected item: its index in the batch and the destination's reason. */
    public record RejectedItem(int index, String reason) {
    }

    private final List<RejectedItem> rejected;
    private final boolean othersWritten;

    private PermanentException(String message, List<RejectedItem> rejected, boolean othersWritten, Throwable cause) {
        super(message, cause);
        this.rejected = List.copyOf(rejected);
        this.othersWritten = othersWritten;
    }

    /** The listed items were rejected and nothing of the batch was written. */
    public PermanentException(String message, List<RejectedItem> rejected, Throwable cause) {
        this(message, rejected, false, cause);
    }

    /** Something in the batch was rejected, the sink cannot say what; nothing was written. */
    public PermanentException(String message, Throwable cause) {
        this(message, List.of(), false, cause);
    }

    /** The listed items were rejected and every other item of the batch was written. */
    public static PermanentException partial(String message, List<RejectedItem> rejected, Throwable cause) {
        if (rejected.isEmpty()) {
            throw new IllegalArgumentException("a partial write must name the rejected items");
        }
        return new PermanentException(message, rejected, true, cause);
    }

    /** Whether every item not listed in {@link #rejected()} was written. */
    public boolean othersWritten() {
        return othersWritten;
    }

    public List<RejectedItem> rejected() {
        return rejected;
    }

    public boolean itemsKnown() {
        return !rejected.isEmpty();
    }

    @Override
    public FailureClass failureClass() {
        return FailureClass.PERMANENT;
    }
}
