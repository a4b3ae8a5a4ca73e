package io.qubiq.pipeline;

/**
 * A connection's channel did not take a pipeline's items: it is full and refuses (policy refuse)
 * or it is not running. The items are counted as refused on the pipeline and its output, and the
 * message, naming the connection and the fill, becomes the pipeline's last error.
 */
public final class OutputRefusedException extends Exception {

    private final int items;

    public OutputRefusedException(String message, int items, Throwable cause) {
        super(message, cause);
        this.items = items;
    }

    /** How many items were refused. */
    public int items() {
        return items;
    }
}
