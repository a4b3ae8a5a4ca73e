package io.qubiq.core.error;

import java.util.List;

/**
 * The destination rejected data: a constraint, schema or type error that retrying cannot fix.
 * When the sink knows which items of the batch were at fault it lists them in {@link #rejected()}
 * (indexes into the batch it was given); the caller quarantines exactly those and delivers the
 * rest. An empty list means "somewhere in this batch": the caller isolates the culprit itself,
 * by bisecting.
 */
public final class PermanentException extends GatewayException {

    /** One rejected item: its index in the batch and the destination's reason. */
    public record RejectedItem(int index, String reason) {
    }

    private final List<RejectedItem> rejected;

    public PermanentException(String message, List<RejectedItem> rejected, Throwable cause) {
        super(message, cause);
        this.rejected = List.copyOf(rejected);
    }

    public PermanentException(String message, Throwable cause) {
        this(message, List.of(), cause);
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
