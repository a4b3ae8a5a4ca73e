package io.qubiq.sink.questdb;

import java.util.Arrays;

/**
 * What a decoder made from a byte sequence it meets again and again, kept under those bytes: a
 * string (table, column and symbol names, symbol values) or a validated row layout. Decoding the
 * same bytes again then returns the same object instead of making and checking a new one. A
 * direct-mapped table keyed by a hash of the bytes; a colliding key replaces the entry in its
 * slot; keys longer than {@code maxKeyBytes} are never kept. A hit compares the bytes in full, so
 * a collision can cost time but never return a wrong value.
 *
 * <p>Thread-safe without locks: each slot holds an immutable entry, written and read with plain
 * (racy) array accesses; a reader sees an older entry, a newer one or none, each complete.
 *
 * @param <V> an immutable value
 */
final class BytesCache<V> {

    private record Entry<V>(byte[] key, V value) {
    }

    private final Entry<V>[] slots;
    private final int maxKeyBytes;

    /** @param slots a power of two */
    @SuppressWarnings("unchecked")
    BytesCache(int slots, int maxKeyBytes) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two, got " + slots);
        }
        this.slots = (Entry<V>[]) new Entry<?>[slots];
        this.maxKeyBytes = maxKeyBytes;
    }

    /** The hash {@link #find} and {@link #keep} take: {@code 31 * h + b} over the bytes. */
    static int hash(byte[] bytes, int offset, int length) {
        int hash = 0;
        for (int i = offset; i < offset + length; i++) {
            hash = 31 * hash + bytes[i];
        }
        return hash;
    }

    /** The value kept for {@code bytes[offset, offset + length)} (whose hash is {@code hash}), or null. */
    V find(byte[] bytes, int offset, int length, int hash) {
        Entry<V> entry = slots[slot(hash)];
        if (entry != null && Arrays.equals(entry.key, 0, entry.key.length, bytes, offset, offset + length)) {
            return entry.value;
        }
        return null;
    }

    /** Keeps {@code value}, made from {@code bytes[offset, offset + length)}, under its hash. */
    void keep(byte[] bytes, int offset, int length, int hash, V value) {
        if (length <= maxKeyBytes) {
            slots[slot(hash)] = new Entry<>(Arrays.copyOfRange(bytes, offset, offset + length), value);
        }
    }

    private int slot(int hash) {
        return (hash ^ (hash >>> 16)) & (slots.length - 1);
    }
}
