package io.qubiq.storeforward.quarantine;

/** Adding an entry would take the quarantine past its byte limit; nothing was stored. */
public final class QuarantineFullException extends Exception {

    private final long usedBytes;
    private final long maxBytes;

    public QuarantineFullException(String dir, long usedBytes, long neededBytes, long maxBytes) {
        super("quarantine " + dir + " is full: " + usedBytes + " of " + maxBytes + " bytes used, "
                + neededBytes + " more needed; retry or drop quarantined items");
        this.usedBytes = usedBytes;
        this.maxBytes = maxBytes;
    }

    public long usedBytes() {
        return usedBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
