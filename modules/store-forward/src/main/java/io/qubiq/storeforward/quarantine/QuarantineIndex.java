package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The in-memory view of a quarantine: every entry's metadata sorted by id, and the bytes each one
 * occupies, so listing, paging and the byte limit never touch the disk. Shared by the file and the
 * memory store so both list, page and count exactly alike.
 *
 * <p><b>Threading.</b> Every method is synchronized and short; no I/O is done while holding the
 * monitor, so a listing never waits for another entry's disk write.
 */
final class QuarantineIndex {

    private record Slot(QuarantineEntry entry, long storedBytes) {
    }

    private final TreeMap<Long, Slot> byId = new TreeMap<>();
    private long usedBytes;

    synchronized boolean contains(long id) {
        return byId.containsKey(id);
    }

    synchronized Optional<QuarantineEntry> get(long id) {
        Slot slot = byId.get(id);
        return slot == null ? Optional.empty() : Optional.of(slot.entry());
    }

    /** Adds an entry that is already stored; an id already present is a caller bug. */
    synchronized void put(QuarantineEntry entry, long storedBytes) {
        if (byId.putIfAbsent(entry.id(), new Slot(entry, storedBytes)) != null) {
            throw new IllegalStateException("entry " + entry.id() + " is already indexed");
        }
        usedBytes += storedBytes;
    }

    synchronized boolean remove(long id) {
        Slot slot = byId.remove(id);
        if (slot == null) {
            return false;
        }
        usedBytes -= slot.storedBytes();
        return true;
    }

    /** Newest (highest id) first; {@code total} counts every entry matching the filter. */
    synchronized QuarantinePage page(int offset, int limit, Optional<FailureClass> failureClass) {
        if (offset < 0 || limit < 0) {
            throw new IllegalArgumentException("offset and limit must not be negative: offset=" + offset
                    + ", limit=" + limit);
        }
        List<QuarantineEntry> entries = new ArrayList<>(Math.min(limit, 256));
        long matched = 0;
        for (Slot slot : byId.descendingMap().values()) {
            QuarantineEntry entry = slot.entry();
            if (failureClass.isPresent() && entry.failureClass() != failureClass.get()) {
                continue;
            }
            if (matched >= offset && entries.size() < limit) {
                entries.add(entry);
            }
            matched++;
        }
        return new QuarantinePage(entries, offset, matched);
    }

    synchronized int size() {
        return byId.size();
    }

    synchronized long usedBytes() {
        return usedBytes;
    }
}
