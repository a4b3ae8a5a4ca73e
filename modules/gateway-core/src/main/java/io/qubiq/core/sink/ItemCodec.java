package io.qubiq.core.sink;

import io.qubiq.core.error.PermanentException;

/**
 * Turns a sink's items into the bytes a durable buffer stores and back. Decoding bytes that were
 * written by {@link #encode} must always succeed; bytes that do not decode are a permanent failure
 * of that one item (it goes to quarantine with the raw bytes), never a reason to stall.
 */
public interface ItemCodec<T> {

    byte[] encode(T item);

    T decode(byte[] bytes) throws PermanentException;

    /** A short, human-readable rendering for the console's quarantine view. */
    String preview(T item);
}
