package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A quarantine held in memory, for unit tests of the layers above. Same semantics as {@link
 * FileQuarantineStore}, including byte accounting (each entry counts the size its file would have)
 * and millisecond times, but nothing survives the process and {@link #setAside()} is always 0.
 *
 * <p><b>Threading.</b> Safe for concurrent callers; every operation is synchronized.
 */
public final class MemoryQuarantineStore implements QuarantineStore {

    private final RetriedItems retried = new RetriedItems();

    private final String name;
    private final long maxBytes;
    private final QuarantineIndex index = new QuarantineIndex();
    private final Map<Long, byte[]> items = new HashMap<>();
    private boolean closed;

    public MemoryQuarantineStore(long maxBytes) {
        this("memory", maxBytes);
    }

    /** @param name shown in error messages, e.g. the channel's name */
    public MemoryQuarantineStore(String name, long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
        }
        this.name = Objects.requireNonNull(name, "name");
        this.maxBytes = maxBytes;
    }

    /** {@inheritDoc} Times are kept to the millisecond, as in the file store. */
    @Override
    public synchronized void add(QuarantineEntry entry, byte[] item) throws QuarantineFullException {
        QuarantineEntry stored = QuarantineEntryFormat.normalize(entry, item);
        ensureOpen();
        if (index.contains(stored.id())) {
            throw new IllegalArgumentException("quarantine " + name + " already holds entry " + stored.id()
                    + "; quarantine ids must be unique");
        }
        long needed = QuarantineEntryFormat.encodedSize(stored);
        long used = index.usedBytes();
        if (used + needed > maxBytes) {
            throw new QuarantineFullException(name, used, needed, maxBytes);
        }
        items.put(stored.id(), item.clone());
        index.put(stored, needed);
    }

    @Override
    public synchronized QuarantinePage list(int offset, int limit, Optional<FailureClass> failureClass) {
        Objects.requireNonNull(failureClass, "failureClass");
        ensureOpen();
        return index.page(offset, limit, failureClass);
    }

    @Override
    public synchronized Optional<QuarantinedItem> get(long id) {
        ensureOpen();
        return index.get(id).map(entry -> new QuarantinedItem(entry, items.get(id).clone()));
    }

    @Override
    public synchronized boolean contains(long id) {
        ensureOpen();
        return index.contains(id);
    }

    @Override
    public synchronized boolean remove(long id) {
        ensureOpen();
        items.remove(id);
        return index.remove(id);
    }

    @Override
    public synchronized int size() {
        return index.size();
    }

    @Override
    public synchronized long usedBytes() {
        return index.usedBytes();
    }

    @Override
    public long maxBytes() {
        return maxBytes;
    }

    @Override
    public int setAside() {
        return 0;
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("quarantine " + name + " is closed");
        }
    }

    @Override
    public RetriedItems retried() {
        return retried;
    }
}
