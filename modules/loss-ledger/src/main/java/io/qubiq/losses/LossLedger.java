package io.qubiq.losses;

import io.qubiq.core.event.DataLoss;
import io.qubiq.fileops.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable record of every loss of data in the gateway (DESIGN.md rule 9): one answer to "did we
 * lose data last night?".
 *
 * <p><b>Layout.</b> One append-only file per UTC day, {@code losses-YYYY-MM-DD.ledger}, in one
 * directory (normally {@code <data>/losses/}): an 8-byte header (magic {@code QLOS}, format version)
 * and then records, each framed by its body length and the CRC32C of its body; see
 * {@link LedgerFormat}. Each record is one {@link LossEntry}: the sum of the losses of one
 * {@link LossEntry.Key} (component, connection, tag, reason, who, minute) since the previous flush.
 * Readers add up the records of a key, so one key may appear several times in a file.
 *
 * <p><b>Aggregation, so a loss storm cannot fill the disk.</b> {@link #record} only adds the loss
 * to an in-memory entry of its key. {@link #flush} writes one record per pending key; the owner calls
 * it at most once a second (the gateway: once a second) and at {@link #close}. So a storm writes at
 * most one record per key per flush, however many losses it reports. While more than
 * {@value #MAX_PENDING_KEYS} keys are pending, new keys lose their tag (the sum per connection and
 * reason still counts every item).
 *
 * <p><b>Compaction.</b> A day file whose day is over (a later day has a file) is rewritten once with
 * one record per key ({@link DayCompaction}: temp file, fsync, atomic rename), at open and after the
 * first flush into a later day; so is the current day's file when it alone would pass the size bound.
 * A day-long storm of one source then keeps one record a minute: 1,440 a day.
 *
 * <p><b>Size bound.</b> The files together stay within {@code maxBytes}: before a record would pass
 * it, whole oldest day files are deleted. A record that still does not fit (the day it belongs to is
 * the oldest left, even compacted) is not written; it is counted in {@link LossReport#unrecorded()}
 * and logged.
 *
 * <p><b>Committed and crash behaviour.</b> A flush appends its records and fsyncs each file it wrote
 * (and the directory when it created a file); then they are committed. A crash loses what was pending
 * (at most one flush interval of sums) and may leave the last record of a file cut short or garbled.
 * On open, every file is read: a record whose length is impossible, whose CRC32C fails or whose fields
 * do not decode is skipped and the scan resumes at the next valid record, so damage costs only the
 * damaged records; damage at the end of a file (a torn tail) is cut off so appends follow a valid
 * record. A file whose header is not readable is moved to {@code corrupt/}. Open never throws for
 * damage: it counts it in {@link #damage()} and logs it. It throws only for an unusable directory
 * and for a file of a newer format version ({@link LedgerVersionException}), and then changes nothing.
 *
 * <p><b>Threading.</b> {@link #record} is safe from any thread and never waits for the disk (it takes
 * a short lock on the pending map only). {@link #flush}, {@link #query} and {@link #close} are safe
 * from any thread; they take the file lock in turn, so a query sees whole flushes only.
 */
public final class LossLedger implements AutoCloseable {

    /** The default of {@code losses.max_bytes}. */
    public static final long DEFAULT_MAX_BYTES = 16L * 1024 * 1024;
    static final int MAX_PENDING_KEYS = 10_000;
    private static final Logger log = LoggerFactory.getLogger(LossLedger.class);

    private final Path dir;
    private final long maxBytes;
    private final LedgerDamage damage;
    private final Object pendingLock = new Object();
    private Map<LossEntry.Key, LossEntry> pending = new LinkedHashMap<>();
    private final ReentrantLock files = new ReentrantLock();
    /** True from a failed write until one succeeds; guarded by {@link #files}. */
    private boolean writeFailing;
    /** Bytes of every day file, oldest day first; guarded by {@link #files}. */
    private final TreeMap<LocalDate, Long> daySizes;
    private final CRC32C crc = new CRC32C();
    /** Days rewritten by {@link DayCompaction} since open; guarded by {@link #files}. */
    private final java.util.Set<LocalDate> compacted = new java.util.HashSet<>();
    private volatile long unrecorded;
    private volatile boolean closed;

    private LossLedger(Path dir, long maxBytes, TreeMap<LocalDate, Long> daySizes, LedgerDamage damage) {
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.daySizes = daySizes;
        this.damage = damage;
    }

    /**
     * Opens (creating if needed) the ledger in {@code dir}, recovering what a crash or damage left.
     *
     * @throws LedgerVersionException when a file is of a newer format (nothing was changed)
     * @throws IOException when the directory cannot be created, listed or written
     */
    public static LossLedger open(Path dir, long maxBytes) throws IOException {
        Objects.requireNonNull(dir, "dir");
        if (maxBytes < 4096) {
            throw new IllegalArgumentException("losses.max_bytes must be at least 4096, got " + maxBytes);
        }
        OwnerOnly.createDirectories(dir);
        LedgerRecovery recovered = LedgerRecovery.run(dir);
        LossLedger ledger = new LossLedger(dir, maxBytes, recovered.sizes(), recovered.damage());
        ledger.files.lock();
        try {
            ledger.compactFinishedDays();
            ledger.keepWithin(0, Optional.empty());
        } finally {
            ledger.files.unlock();
        }
        return ledger;
    }

    /** Adds a loss to the pending sums; it is on disk after the next {@link #flush}. Never waits for I/O. */
    public void record(DataLoss loss) {
        LossEntry entry = LossEntry.of(loss);
        synchronized (pendingLock) {
            if (pending.size() >= MAX_PENDING_KEYS && !pending.containsKey(entry.key())) {
                entry = entry.withoutTag();
            }
            pending.merge(entry.key(), entry, LossEntry::plus);
        }
    }

    /**
     * Writes every pending sum as one record and fsyncs. A write that fails puts its sums back, to be
     * tried at the next flush.
     *
     * @return the records written
     */
    public int flush() {
        Map<LossEntry.Key, LossEntry> batch;
        synchronized (pendingLock) {
            if (pending.isEmpty()) {
                return 0;
            }
            batch = pending;
            pending = new LinkedHashMap<>();
        }
        files.lock();
        try {
            return write(batch);
        } finally {
            files.unlock();
        }
    }

    /**
     * Flushes and says whether every loss recorded before the call is on disk now (fsynced): false when
     * a write failed (what it carried stays pending, for the next flush). A loss recorded by another
     * thread meanwhile may make it flush again, a few times at most.
     */
    public boolean flushAll() {
        for (int round = 0; round < 3; round++) {
            flush();
            files.lock();
            try {
                if (writeFailing) {
                    return false;
                }
            } finally {
                files.unlock();
            }
            synchronized (pendingLock) {
                if (pending.isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Compacts, once, every day file but the newest. The file lock is held. */
    private void compactFinishedDays() {
        if (daySizes.isEmpty()) {
            return;
        }
        LocalDate newest = daySizes.lastKey();
        for (LocalDate day : List.copyOf(daySizes.headMap(newest).keySet())) {
            if (!compacted.contains(day)) {
                compact(day);
            }
        }
    }

    /** Compacts one day's file; true when it got smaller. The file lock is held. */
    private boolean compact(LocalDate day) {
        compacted.add(day);
        Path file = dir.resolve(LedgerFormat.fileName(day));
        try {
            java.util.OptionalLong size = DayCompaction.compact(file, crc);
            if (size.isEmpty()) {
                return false;
            }
            syncDirectory();
            log.debug("Loss ledger compacted {} from {} to {} bytes", file, daySizes.get(day), size.getAsLong());
            daySizes.put(day, size.getAsLong());
            return true;
        } catch (IOException e) {
            log.warn("Loss ledger could not compact {}: {}; it stays as it was", file, e.toString());
            return false;
        }
    }

    private int write(Map<LossEntry.Key, LossEntry> batch) {
        Map<LocalDate, List<LossEntry>> byDay = new TreeMap<>();
        batch.values().forEach(e -> byDay.computeIfAbsent(LedgerFormat.dayOf(e.minute()), d -> new ArrayList<>()).add(e));
        int written = 0;
        boolean failedNow = false;
        for (Map.Entry<LocalDate, List<LossEntry>> day : byDay.entrySet()) {
            try {
                written += append(day.getKey(), day.getValue());
            } catch (IOException e) {
                if (!writeFailing) { // once per spell: the flush is retried every second
                    log.error("Loss ledger could not write {} entries of {} to {}: {}; kept in memory (and shown by"
                            + " queries), retried at every flush until it succeeds", day.getValue().size(),
                            day.getKey(), dir, e.toString());
                }
                failedNow = true;
                synchronized (pendingLock) {
                    day.getValue().forEach(entry -> pending.merge(entry.key(), entry, (later, earlier) -> earlier.plus(later)));
                }
            }
        }
        if (writeFailing && !failedNow) {
            log.info("Loss ledger in {} is written again", dir);
        }
        writeFailing = failedNow;
        compactFinishedDays();
        return written;
    }

    /** Appends one day's records within the size bound and fsyncs; the file lock is held. */
    private int append(LocalDate day, List<LossEntry> entries) throws IOException {
        Path file = dir.resolve(LedgerFormat.fileName(day));
        boolean created = !daySizes.containsKey(day) || !Files.exists(file);
        long size = created ? 0 : daySizes.get(day);
        List<ByteBuffer> frames = new ArrayList<>();
        long batchBytes = created ? LedgerFormat.FILE_HEADER_BYTES : 0;
        long refused = 0;
        boolean mayCompact = !created;
        for (LossEntry entry : entries) {
            ByteBuffer frame = LedgerFormat.frame(entry, crc);
            boolean fits = keepWithin(size + batchBytes + frame.remaining(), Optional.of(day));
            if (!fits && mayCompact) {
                mayCompact = false; // once per append: a file with nothing to merge is not read again
                if (compact(day)) {
                    // the day's per-flush sums merged into one record per key: room again, and the
                    // compacted file is what the frames are appended to
                    size = daySizes.get(day);
                    fits = keepWithin(size + batchBytes + frame.remaining(), Optional.of(day));
                }
            }
            if (fits) {
                frames.add(frame);
                batchBytes += frame.remaining();
            } else {
                refused += entry.reports();
            }
        }
        if (refused > 0) {
            unrecorded += refused;
            log.error("Loss ledger in {} is at its size bound ({} bytes) with only {} left: {} loss reports not"
                    + " recorded (they are in the log and the metrics)", dir, maxBytes, day, refused);
        }
        if (frames.isEmpty()) {
            return 0;
        }
        try (FileChannel channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND), OwnerOnly.fileAttribute())) {
            long before = channel.size();
            try {
                if (before == 0) {
                    writeFully(channel, LedgerFormat.fileHeader());
                }
                for (ByteBuffer frame : frames) {
                    writeFully(channel, frame);
                }
                channel.force(false);
            } catch (IOException e) {
                // a full disk takes part of a record: cut it off, so the file ends at a whole record
                try {
                    channel.truncate(before);
                } catch (IOException notCut) {
                    e.addSuppressed(notCut); // the scan on the next open skips the torn tail
                }
                throw e;
            }
            daySizes.put(day, channel.size());
        }
        if (created) {
            syncDirectory();
        }
        return frames.size();
    }

    /**
     * Deletes whole oldest day files, never {@code keep}, until {@code adding} more bytes fit within
     * the bound. The file lock is held.
     *
     * @return false when they still would not fit
     */
    private boolean keepWithin(long adding, Optional<LocalDate> keep) {
        while (total() - keep.map(d -> daySizes.getOrDefault(d, 0L)).orElse(0L) + adding > maxBytes) {
            LocalDate oldest = daySizes.isEmpty() ? null : daySizes.firstKey();
            if (oldest == null || keep.isPresent() && !oldest.isBefore(keep.get())) {
                return false;
            }
            Path file = dir.resolve(LedgerFormat.fileName(oldest));
            try {
                Files.deleteIfExists(file);
                daySizes.remove(oldest);
                log.info("Loss ledger deleted {} to stay within losses.max_bytes ({} bytes)", file, maxBytes);
            } catch (IOException e) {
                log.warn("Loss ledger could not delete {} to make room: {}", file, e.toString());
                return false;
            }
        }
        return true;
    }

    private long total() {
        return daySizes.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    private void syncDirectory() {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some file systems cannot fsync a directory; the file's own fsync still holds its bytes
            log.debug("Could not fsync directory {}: {}", dir, e.toString());
        }
    }

    /** The entries and daily totals that match, the stored ones and those not yet flushed. */
    public LossReport query(LossQuery query) {
        Map<LossEntry.Key, LossEntry> merged = new LinkedHashMap<>();
        files.lock();
        try {
            Optional<LocalDate> firstDay = query.from().map(LedgerFormat::dayOf);
            Optional<LocalDate> lastDay = query.to().map(LedgerFormat::dayOf);
            for (LocalDate day : daySizes.keySet()) {
                if (firstDay.map(day::isBefore).orElse(false) || lastDay.map(day::isAfter).orElse(false)) {
                    continue;
                }
                Path file = dir.resolve(LedgerFormat.fileName(day));
                try {
                    LedgerScan.read(file).entries().forEach(e -> merged.merge(e.key(), e, LossEntry::plus));
                } catch (IOException e) {
                    log.warn("Loss ledger could not read {}: {}", file, e.toString());
                }
            }
        } finally {
            files.unlock();
        }
        synchronized (pendingLock) {
            pending.values().forEach(e -> merged.merge(e.key(), e, LossEntry::plus));
        }
        List<LossEntry> matching = merged.values().stream()
                .filter(query::matches)
                .sorted(Comparator.comparing(LossEntry::minute).thenComparing(LossEntry::lastAt).reversed())
                .toList();
        Map<LocalDate, DayTotal> totals = new TreeMap<>(Comparator.reverseOrder());
        for (LossEntry entry : matching) {
            LocalDate day = LedgerFormat.dayOf(entry.minute());
            totals.computeIfAbsent(day, d -> new DayTotal(d, 0, 0, 0));
            totals.computeIfPresent(day, (d, total) -> total.plus(entry));
        }
        boolean truncated = matching.size() > query.limit();
        return new LossReport(truncated ? matching.subList(0, query.limit()) : matching, truncated,
                List.copyOf(totals.values()), damage, unrecorded);
    }

    /** Damage found in the ledger's own files when it opened. */
    public LedgerDamage damage() {
        return damage;
    }

    /** Bytes the day files occupy. */
    public long bytesOnDisk() {
        files.lock();
        try {
            return total();
        } finally {
            files.unlock();
        }
    }

    public Path directory() {
        return dir;
    }

    /** Flushes what is pending. Losses recorded afterwards are still summed in memory and flushed by a later call. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            flush();
        }
    }
}
