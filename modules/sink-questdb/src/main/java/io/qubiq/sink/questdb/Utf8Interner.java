package io.qubiq.sink.questdb;

import java.util.Arrays;

/**
 * The strings a decoder meets again and again (table, symbol and column names, symbol values),
 * kept so that decoding one returns the same {@code String} instance instead of a new one: no
 * allocation for a repeated string, and {@link QuestDbNames}' cache then recognises a name by
 * reference. A direct-mapped table of {@value #SLOTS} slots keyed by a hash of the UTF-8 bytes; a
 * colliding string replaces the one in its slot. Strings longer than {@value #MAX_BYTES} bytes are
 * never kept. A hit compares the bytes in full, so a collision can cost time but never return a
 * wrong string.
 *
 * <p>Thread-safe without locks: each slot holds an immutable entry, written and read with plain
 * (racy) array accesses; a reader sees an older entry, a newer one or none, each complete.
 */
final class Utf8Interner {

    static final int MAX_BYTES = 64;
    private static final int SLOTS = 2048;

    private record Entry(byte[] utf8, String value) {
    }

    private final Entry[] slots = new Entry[SLOTS];

    /**
     * The string kept for {@code bytes[offset, offset + length)} with the given hash, or null.
     *
     * @param hash {@link #hash} of the same bytes
     */
    String find(byte[] bytes, int offset, int length, int hash) {
        Entry entry = slots[slot(hash)];
        if (entry != null && Arrays.equals(entry.utf8, 0, entry.utf8.length, bytes, offset, offset + length)) {
            return entry.value;
        }
        return null;
    }

    /** Keeps {@code value}, decoded from {@code bytes[offset, offset + length)}, under its hash. */
    void keep(byte[] bytes, int offset, int length, int hash, String value) {
        if (length <= MAX_BYTES) {
            slots[slot(hash)] = new Entry(Arrays.copyOfRange(bytes, offset, offset + length), value);
        }
    }

    private static int slot(int hash) {
        return (hash ^ (hash >>> 16)) & (SLOTS - 1);
    }
}
