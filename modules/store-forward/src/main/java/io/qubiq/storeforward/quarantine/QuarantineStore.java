package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.io.IOException;
import java.util.Optional;

/**
 * The durable storage behind one channel's quarantine: entries keyed by id, each with its item's
 * bytes. Operator semantics (retry, drop, audit) live above it, in the channel's quarantine service.
 *
 * <p><b>Durability.</b> {@link #add} and {@link #remove} return only once the change is on stable
 * storage: after a crash (including {@code kill -9} and power loss) an added entry is present and a
 * removed one is gone. A crash during either leaves the store as it was before or after the call,
 * never a half-written entry. Entries that fail their checksum on open are moved aside (never
 * deleted) and reported by {@link #setAside()}.
 *
 * <p><b>Values.</b> Failure times are kept to the millisecond (finer instants are truncated), and
 * {@code entry.itemBytes()} must equal the item's length.
 *
 * <p><b>Limit.</b> {@link #usedBytes()} counts what each entry occupies on disk (header, texts and
 * item); an {@link #add} that would pass {@code maxBytes} is refused with {@link
 * QuarantineFullException} and stores nothing.
 *
 * <p><b>Threading.</b> Safe for concurrent callers (the forwarder adds while an operator lists,
 * retries or drops).
 */
public interface QuarantineStore extends AutoCloseable {

    /**
     * Stores one entry durably. An id already present, or an {@code itemBytes} that differs from
     * {@code item.length}, is rejected with IllegalArgumentException and nothing is stored.
     */
    void add(QuarantineEntry entry, byte[] item) throws QuarantineFullException, IOException;

    /** Entries newest first (highest id first), optionally only one failure class. */
    QuarantinePage list(int offset, int limit, Optional<FailureClass> failureClass);

    /**
     * One entry with its item; empty when no such id. A durable store verifies the item again as it
     * reads it: an entry damaged since open is moved aside (counted by {@link #setAside()}, no
     * longer listed) and reported by a {@link QuarantineEntryCorruptException} naming the file.
     */
    Optional<QuarantinedItem> get(long id) throws IOException;

    /** Whether an entry with this id is stored (committed); answered from memory. */
    boolean contains(long id);

    /** Removes one entry durably; false when there was no such id. */
    boolean remove(long id) throws IOException;

    int size();

    long usedBytes();

    long maxBytes();

    /**
     * Entries found damaged and moved to the {@code corrupt/} folder since the store was opened:
     * on open, or later by {@link #get}.
     */
    int setAside();

    /**
     * Items retried out of this quarantine and not yet delivered or quarantined again; in memory,
     * shared by the operator's retry and the forwarder (see {@link RetriedItems}).
     */
    RetriedItems retried();

    @Override
    void close() throws IOException;
}
