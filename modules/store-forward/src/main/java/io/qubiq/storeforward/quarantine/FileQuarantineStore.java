package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.StoreFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A quarantine kept as one file per entry in its own directory.
 *
 * <p><b>Layout.</b> {@code <dir>/<id as 20 zero-padded digits>.qentry}, each file one entry in the
 * byte layout of {@link QuarantineEntryFormat} (magic, version 1, id, failure class, attempts,
 * first and last failure, reason, error, item, CRC32C trailer). {@code quarantine.lock} holds the
 * owner's PID; {@code corrupt/} holds damaged files set aside; {@code FORMAT} holds the store's
 * format line ({@link #FORMAT}). See {@link QuarantineDirectory}.
 *
 * <p><b>Committed.</b> {@link #add} writes a temp file, fsyncs it, renames it atomically to the
 * entry name and fsyncs the directory; it returns only then, and only then does the entry appear
 * in {@link #list}. {@link #remove} unlinks the file and fsyncs the directory before returning.
 *
 * <p><b>What a crash leaves.</b> A crash during {@code add} leaves no entry (at most a temp file,
 * deleted on the next open) or the complete entry, never part of one; which of the two depends on
 * whether the rename reached the disk. A crash during {@code remove} leaves the entry complete or
 * gone. A crash while a damaged file is set aside leaves it in place (checked again on the next
 * open) or in {@code corrupt/}, possibly without its note. Files damaged any other way (disk
 * faults, editing by hand) fail their checks on the next {@link #open} and are moved to {@code
 * corrupt/} with a {@code .note}; open never throws because of a damaged entry. See {@link
 * QuarantineRecovery}. A quarantine whose {@code FORMAT} line says a newer version was written by a
 * newer gateway: open refuses with a {@link io.qubiq.fileops.NewerFormatException} before recovery
 * touches anything.
 *
 * <p><b>When the disk fails.</b> A failed write leaves nothing: {@code add} deletes its temp file,
 * or its renamed file if the directory fsync failed, and throws an IOException naming the file.
 * If the directory fsync after a {@code remove} fails, the file is already unlinked: the entry
 * leaves the index and the IOException says the removal may come back after a power loss.
 *
 * <p><b>Memory.</b> Only metadata is kept in memory (reason and error texts included); item bytes
 * are read from the file, and verified again, on {@link #get}. {@link #usedBytes} is the sum of the
 * entry files' sizes.
 *
 * <p><b>Threading.</b> Safe for concurrent callers. {@code add} and {@code remove} are serialized
 * by a write lock held across their disk I/O; the index has its own short-held monitor, so {@code
 * list}, {@code size} and {@code usedBytes} never wait for a disk write, and {@code get} reads its
 * file without any lock.
 */
public final class FileQuarantineStore implements QuarantineStore {

    private final RetriedItems retried = new RetriedItems();

    private final QuarantineDirectory directory;
    private final CorruptFolder corrupt;
    private final QuarantineIndex index = new QuarantineIndex();
    /**
     * The directory's format line. Version 1 holds entry files of {@link QuarantineEntryFormat}
     * versions 1 and 2; a gateway that writes entries an older one cannot read raises it.
     */
    static final StoreFormat FORMAT = new StoreFormat("qubiq-quarantine", "quarantine", 1);

    private final QuarantineDirectoryLock lock;
    private final long maxBytes;
    private final Object writeLock = new Object();
    private volatile boolean closed;
    private volatile int setAside;

    private FileQuarantineStore(Path dir, long maxBytes, QuarantineDirectoryLock lock, FileOps files,
                                QuarantineDirectory.FileWrite fileWrite) {
        this.directory = new QuarantineDirectory(dir, files, fileWrite);
        this.corrupt = new CorruptFolder(dir, files);
        this.lock = lock;
        this.maxBytes = maxBytes;
    }

    /**
     * Opens (creating if needed) the quarantine in {@code dir}, recovering as described above.
     *
     * @throws QuarantineLockedException the directory is open elsewhere, in this JVM or another process
     * @throws IOException               the directory itself cannot be created, locked or listed
     */
    public static FileQuarantineStore open(Path dir, long maxBytes) throws IOException {
        return open(dir, maxBytes, FileOps.system());
    }

    /** With custom file operations: the power-loss tests record them. */
    public static FileQuarantineStore open(Path dir, long maxBytes, FileOps files) throws IOException {
        return open(dir, maxBytes, files, QuarantineDirectory.durable(files));
    }

    /** With a different way of writing entry files: for tests that interrupt a write like a crash. */
    static FileQuarantineStore open(Path dir, long maxBytes, QuarantineDirectory.FileWrite fileWrite)
            throws IOException {
        return open(dir, maxBytes, FileOps.system(), fileWrite);
    }

    private static FileQuarantineStore open(Path dir, long maxBytes, FileOps files,
                                            QuarantineDirectory.FileWrite fileWrite) throws IOException {
        Objects.requireNonNull(dir, "dir");
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
        }
        if (!Files.isDirectory(dir)) {
            files.createDirectories(dir);
            Path parent = dir.toAbsolutePath().getParent();
            if (parent != null) {
                files.syncDirectory(parent);
            }
        }
        QuarantineDirectoryLock lock = QuarantineDirectoryLock.acquire(dir);
        FileQuarantineStore store = new FileQuarantineStore(dir, maxBytes, lock, files, fileWrite);
        try {
            StoreFormat.Check format = FORMAT.check(dir); // before recovery changes anything
            store.setAside = QuarantineRecovery.recover(store.directory, store.corrupt, store.index).setAside();
            FORMAT.record(dir, format, files);
            return store;
        } catch (IOException | RuntimeException e) {
            try {
                lock.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Times are stored to the millisecond. {@code entry.itemBytes()} must equal {@code item.length}.
     */
    @Override
    public void add(QuarantineEntry entry, byte[] item) throws QuarantineFullException, IOException {
        QuarantineEntry stored = QuarantineEntryFormat.normalize(entry, item);
        byte[] bytes = QuarantineEntryFormat.encode(stored, item);
        synchronized (writeLock) {
            ensureOpen();
            if (index.contains(stored.id())) {
                throw new IllegalArgumentException("quarantine " + directory.path() + " already holds entry "
                        + stored.id() + "; quarantine ids must be unique");
            }
            long used = index.usedBytes();
            if (used + bytes.length > maxBytes) {
                throw new QuarantineFullException(directory.path().toString(), used, bytes.length, maxBytes);
            }
            directory.write(stored.id(), bytes);
            index.put(stored, bytes.length);
        }
    }

    @Override
    public QuarantinePage list(int offset, int limit, Optional<FailureClass> failureClass) {
        Objects.requireNonNull(failureClass, "failureClass");
        ensureOpen();
        return index.page(offset, limit, failureClass);
    }

    /**
     * {@inheritDoc}
     *
     * @throws QuarantineEntryCorruptException the entry's file no longer verifies; it has been moved to
     *                                         {@code corrupt/} and is no longer listed
     */
    @Override
    public Optional<QuarantinedItem> get(long id) throws IOException {
        ensureOpen();
        Optional<QuarantineEntry> known = index.get(id);
        if (known.isEmpty()) {
            return Optional.empty();
        }
        Path file = directory.entryFile(id);
        QuarantineEntryFormat.Decoded decoded;
        try {
            decoded = QuarantineEntryFormat.read(file, true);
            if (!decoded.entry().equals(known.get())) {
                throw new QuarantineEntryCorruptException(file, 0, "the file no longer holds the entry indexed at open");
            }
        } catch (NoSuchFileException e) {
            synchronized (writeLock) { // a remove in progress holds it until file and index agree
                if (!index.remove(id)) {
                    return Optional.empty();
                }
            }
            throw new NoSuchFileException(file.toString(), null, "quarantine entry " + id
                    + " was deleted outside the gateway; it is no longer listed, re-send the item if still needed");
        } catch (QuarantineEntryCorruptException e) {
            return setAsideAfterOpen(id, e);
        }
        return Optional.of(new QuarantinedItem(decoded.entry(), decoded.item()));
    }

    /** Empty when a concurrent remove got there first; otherwise sets the file aside and throws. */
    private Optional<QuarantinedItem> setAsideAfterOpen(long id, QuarantineEntryCorruptException damage)
            throws QuarantineEntryCorruptException {
        Optional<Path> movedTo;
        synchronized (writeLock) {
            if (!index.remove(id)) {
                return Optional.empty();
            }
            movedTo = QuarantineRecovery.setAside(damage.file(),
                    "at byte " + damage.offset() + ": " + damage.problem(), corrupt);
            setAside++;
        }
        throw new QuarantineEntryCorruptException(damage.file(), damage.offset(), damage.problem(),
                (movedTo.isPresent() ? "it was moved to " + movedTo.get() + " with a note"
                        : "it could not be moved to " + corrupt.path() + ", move it out by hand")
                        + "; it is no longer listed, re-send the item from its source if still needed");
    }

    @Override
    public boolean contains(long id) {
        ensureOpen();
        return index.contains(id);
    }

    @Override
    public boolean remove(long id) throws IOException {
        synchronized (writeLock) {
            ensureOpen();
            if (!index.contains(id)) {
                return false;
            }
            directory.delete(id);
            index.remove(id); // unlinked: get could no longer read it, whatever the fsync below does
            directory.sync(); // on failure: the removal may come back after a power loss, and we say so
            return true;
        }
    }

    @Override
    public int size() {
        return index.size();
    }

    @Override
    public long usedBytes() {
        return index.usedBytes();
    }

    @Override
    public long maxBytes() {
        return maxBytes;
    }

    @Override
    public int setAside() {
        return setAside;
    }

    /** The directory this store owns. */
    public Path directory() {
        return directory.path();
    }

    @Override
    public void close() throws IOException {
        synchronized (writeLock) {
            if (closed) {
                return;
            }
            closed = true;
            lock.close();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("quarantine " + directory.path() + " is closed");
        }
    }

    @Override
    public String toString() {
        return "FileQuarantineStore[" + directory.path() + ", " + size() + " entries, " + usedBytes() + " of "
                + maxBytes + " bytes]";
    }

    @Override
    public RetriedItems retried() {
        return retried;
    }
}
