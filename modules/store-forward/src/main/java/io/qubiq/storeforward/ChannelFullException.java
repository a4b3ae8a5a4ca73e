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
        this("store-and-forward buffer of '" + connection + "' is full (" + usedBytes + " of " + maxBytes
                + " bytes) and refuses new writes until the destination catches up", connection, usedBytes, maxBytes,
                cause);
    }

    private ChannelFullException(String message, String connection, long usedBytes, long maxBytes, Throwable cause) {
        super(message, cause);
        this.connection = connection;
        this.usedBytes = usedBytes;
        this.maxBytes = maxBytes;
    }

    /** Refused because the disk is in its critical reserve: the buffer is held at {@code usedBytes}. */
    public static ChannelFullException diskAlmostFull(String connection, long usedBytes, Throwable cause) {
        return new ChannelFullException("store-and-forward buffer of '" + connection + "' refuses new writes:"
                + " disk almost full (the buffer is held at " + usedBytes + " bytes until disk space is freed)",
                connection, usedBytes, usedBytes, cause);
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
