package io.qubiq.storeforward;

/**
 * A channel with the refuse policy is at its limit: the batch was not accepted, nothing of it was
 * stored, and the backlog is kept. The producer decides what to do (report, retry later).
 */
public final class ChannelFullException extends Exception {

    private final String connection;
    private final long usedBytes;
    private final long maxBytes;

    public ChannelFullException(String connection, long usedBytes, long maxBytes, Throwable cause) {
        super("store-and-forward buffer of '" + connection + "' is full (" + usedBytes + " of " + maxBytes
                + " bytes) and refuses new writes until the destination catches up", cause);
        this.connection = connection;
        this.usedBytes = usedBytes;
        this.maxBytes = maxBytes;
    }

    public String connection() {
        return connection;
    }

    public long usedBytes() {
        return usedBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
