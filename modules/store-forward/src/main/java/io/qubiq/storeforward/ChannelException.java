package io.qubiq.storeforward;

/**
 * The channel could not take the batch for a reason other than its limit: its storage failed (disk
 * error) or it is not running. Nothing can be assumed stored; the producer must treat the batch as
 * not accepted.
 */
public final class ChannelException extends Exception {

    public ChannelException(String message, Throwable cause) {
        super(message, cause);
    }
}
