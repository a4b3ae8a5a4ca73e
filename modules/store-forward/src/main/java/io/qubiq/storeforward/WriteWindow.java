package io.qubiq.storeforward;

/**
 * How many items the forwarder hands the sink in one write. It starts at {@code batch_max_items}.
 * A write the destination's timeout cut off ({@code UnknownOutcomeException.isTimeout()}) halves
 * it, down to one item, so a destination that is up but slower than its timeout for a full batch
 * still takes some items per write and the backlog drains at the destination's pace instead of the
 * same batch timing out forever.
 *
 * <p>It grows back by doubling after a successful full-size write that was quick enough: one that
 * took less than 3/8 of the time the last cut-off write ran (so twice as many items should finish
 * well inside the timeout). With no cut-off write seen yet, every full-size success doubles it.
 * A destination that stays slow therefore settles at a size that fits, instead of paying a timeout
 * every few writes to probe upwards; one that speeds up grows back to full batches.
 *
 * <p>One per channel, shared by both ways the forwarder writes: batches read back from the buffer
 * ({@link DeliveryAttempt}) and batches handed off in memory ({@link HandOffDelivery}), so a timeout
 * on either shrinks the size both write at.
 *
 * <p>Threading: owned by the forwarder thread.
 */
final class WriteWindow {

    private final int maxItems;
    private int items;
    /** How long the last cut-off write ran; 0 when none was seen since full size. */
    private long timedOutAfterNanos;

    WriteWindow(int maxItems) {
        if (maxItems < 1) {
            throw new IllegalArgumentException("maxItems must be at least 1, was " + maxItems);
        }
        this.maxItems = maxItems;
        this.items = maxItems;
    }

    /** Items to write at a time now. */
    int items() {
        return items;
    }

    int maxItems() {
        return maxItems;
    }

    /** Whether timeouts made it write fewer than {@code batch_max_items} at a time. */
    boolean reduced() {
        return items < maxItems;
    }

    /** A write of {@code written} items was cut off by the timeout after {@code elapsedNanos}. */
    void timedOut(int written, long elapsedNanos) {
        items = Math.max(1, Math.min(items, written) / 2);
        timedOutAfterNanos = Math.max(1, elapsedNanos);
    }

    /** A write of {@code written} items succeeded in {@code elapsedNanos}. */
    void succeeded(int written, long elapsedNanos) {
        if (items == maxItems || written < items) {
            return; // a short write (the tail of a batch) says little about a full one
        }
        if (timedOutAfterNanos == 0 || elapsedNanos * 8 < timedOutAfterNanos * 3) {
            items = (int) Math.min(maxItems, items * 2L);
            if (items == maxItems) {
                timedOutAfterNanos = 0;
            }
        }
    }
}
