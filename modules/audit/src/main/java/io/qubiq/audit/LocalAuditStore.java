package io.qubiq.audit;

import io.qubiq.buffer.DiskFull;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default audit store: an append-only journal of {@link JournalEntry}s in one directory
 * (normally {@code <data>/audit/journal/}), written as the sink of the audit store-and-forward channel,
 * and read newest first by {@link #query}.
 *
 * <p><b>Layout.</b> Segment files {@code <first seq, 20 digits>.journal}, each a header and then
 * records, each record carrying its body length and a CRC32C of its body (sequence number, entry id,
 * {@link JournalEntryCodec} bytes); see {@link JournalFormat} and {@code docs/formats/audit-journal.md}.
 * A new segment starts when the next record would pass {@code segment_bytes}. Damage found on open
 * is set aside in {@code corrupt/} (see {@link JournalRecovery}).
 *
 * <p><b>Invariants.</b> Sequence numbers increase by one with each stored entry, across segments
 * and restarts (the newest segment is never deleted, so its name keeps the count). An entry id is
 * stored at most once among the newest {@value RecentIds#CAPACITY} entries: an entry delivered again
 * is skipped, so {@link #write} may be replayed safely ({@link #idempotent()} is true); the one
 * exception is a kept entry carried forward (below), stored again under its own id. Retention
 * deletes whole oldest segments only, never the newest: while the oldest segment was last written more
 * than {@code max_age_days} ago, or while the journal is larger than {@code max_bytes} and the oldest
 * segment was last written more than {@code min_age_days} ago (so a flood of entries cannot push out
 * recent ones; the journal may then stay over {@code max_bytes}, logged at WARN once). An entry marked
 * {@code keep: always} ({@link AuditAction#DETAIL_KEEP}, the creation of the first administrator) is
 * never lost to retention: before its segment is deleted it is appended again to the newest segment,
 * with its id, time and content and the detail {@value #DETAIL_CARRIED_FROM}; listings newest first then
 * show it among the entries stored at that moment.
 *
 * <p><b>Committed and crash behaviour.</b> {@link #write} returns only after the batch's records are
 * written and fsynced: then they are committed. A crash during a write leaves a prefix of the batch
 * (the last record possibly cut short); the next open truncates the cut record, and the channel's
 * replay of the whole batch stores only the entries that are not there yet. Nothing is held in memory
 * that the files do not have: the in-memory view is rebuilt by recovery after any I/O failure.
 *
 * <p><b>Failures.</b> An I/O failure (disk full, directory unwritable) is transient: the channel keeps
 * the batch and retries. An entry too large for a segment is permanent (named; nothing of the batch is
 * written), so the channel quarantines it instead of stalling.
 *
 * <p><b>Threading.</b> {@link #write} is called by one thread at a time (the channel guarantees it);
 * {@link #query} may run concurrently from any number of threads. Writes take the write lock,
 * queries the read lock, so a query sees whole batches only.
 */
public final class LocalAuditStore implements Sink<JournalEntry> {

    private static final Logger log = LoggerFactory.getLogger(LocalAuditStore.class);
    /** Detail added to an entry carried forward by retention: the sequence number it was first stored under. */
    public static final String DETAIL_CARRIED_FROM = "carried_from_seq";

    private final String id;
    private final Path dir;
    private final long maxBytes;
    private final int segmentBytes;
    private final Optional<Duration> maxAge;
    private final Duration minAge;
    private boolean overSizeWarned;
    private final Clock clock;
    private final FileOps files;
    private final JournalEntryCodec codec = new JournalEntryCodec();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private JournalAppender appender;
    private boolean closed;
    private volatile Optional<String> lastError = Optional.empty();

    public LocalAuditStore(String id, Path dir, AuditConfig config, Clock clock) {
        this(id, dir, config, clock, FileOps.system());
    }

    /** With custom file operations: the power-loss tests record them. */
    public LocalAuditStore(String id, Path dir, AuditConfig config, Clock clock, FileOps files) {
        this.files = Objects.requireNonNull(files, "files");
        this.id = Objects.requireNonNull(id, "id");
        this.dir = Objects.requireNonNull(dir, "dir");
        this.maxBytes = config.maxBytes();
        this.segmentBytes = config.segmentBytes();
        this.maxAge = config.maxAgeDays().map(Duration::ofDays);
        this.minAge = Duration.ofDays(config.minAgeDays());
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String id() {
        return id;
    }

    public Path directory() {
        return dir;
    }

    /**
     * Opens the journal now (recovery included) instead of at the first write or query.
     *
     * @throws IOException the directory cannot be read or written; the store stays usable and tries
     *                     again on the next call
     */
    public void open() throws IOException {
        lock.writeLock().lock();
        try {
            requireOpen();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The highest entry id stored (0 for an empty journal), for seeding {@link EntryIds}. */
    public long highestId() throws IOException {
        lock.writeLock().lock();
        try {
            return requireOpen().highestId();
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void write(List<JournalEntry> batch) throws GatewayException {
        if (batch.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>(batch.size());
        List<byte[]> payloads = new ArrayList<>(batch.size());
        List<PermanentException.RejectedItem> rejected = new ArrayList<>();
        int maxPayload = JournalAppender.maxBody(segmentBytes) - JournalFormat.BODY_FIXED_BYTES;
        for (int i = 0; i < batch.size(); i++) {
            byte[] payload = codec.encode(batch.get(i));
            if (payload.length > maxPayload) {
                rejected.add(new PermanentException.RejectedItem(i, "audit entry of " + payload.length
                        + " bytes does not fit a journal segment (segment_bytes " + segmentBytes + ")"));
            }
            ids.add(batch.get(i).id());
            payloads.add(payload);
        }
        if (!rejected.isEmpty()) {
            throw new PermanentException(rejected.size() + " audit entr" + (rejected.size() == 1 ? "y is" : "ies are")
                    + " too large for the journal; nothing of the batch was written", rejected, null);
        }
        lock.writeLock().lock();
        try {
            JournalAppender journal = requireOpen();
            try {
                journal.append(ids, payloads);
            } catch (IOException e) {
                discardAppender();
                throw e;
            }
            lastError = Optional.empty();
            retain(journal);
        } catch (IOException e) {
            lastError = Optional.of(e.toString());
            throw new TransientException(DiskFull.describe("audit journal in " + dir + " could not be written", e)
                    + "; the entries stay in the audit channel's buffer and are written again", e);
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void retain(JournalAppender journal) {
        try {
            List<SegmentInfo> expired = journal.expired(maxBytes, maxAge, minAge, clock.instant());
            if (expired.isEmpty()) {
                warnIfOverSize(journal);
                return;
            }
            carryForward(journal, expired);
            int deleted = journal.deleteOldest(expired.size());
            if (deleted > 0) {
                log.info("Audit journal: retention deleted the {} oldest segment(s) in {}", deleted, dir);
            }
            warnIfOverSize(journal);
        } catch (IOException e) {
            discardAppender();
            log.warn("Audit journal: retention could not carry kept entries forward or delete an old segment in {}:"
                    + " {}; it is tried again after the next write", dir, e.toString());
        }
    }

    /**
     * Appends again, to the newest segment, every entry marked {@code keep: always} in the segments about
     * to be deleted: same entry id, event and time, plus the detail {@value #DETAIL_CARRIED_FROM} naming
     * its first sequence number. Fsynced before the caller deletes anything; a crash in between leaves two
     * copies, never none.
     */
    private void carryForward(JournalAppender journal, List<SegmentInfo> expired) throws IOException {
        List<Long> ids = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        int maxBody = JournalAppender.maxBody(segmentBytes);
        for (SegmentInfo segment : expired) {
            SegmentReader.read(segment.file(), segment.bytes(), segment.firstSeq() - 1, maxBody,
                    (seq, entryId, payload, offset) -> {
                        Optional<JournalEntry> kept = kept(payload);
                        kept.ifPresent(entry -> {
                            Map<String, String> details = new LinkedHashMap<>(entry.event().details());
                            details.putIfAbsent(DETAIL_CARRIED_FROM, Long.toString(seq));
                            AuditEvent e = entry.event();
                            ids.add(entry.id());
                            payloads.add(codec.encode(new JournalEntry(entry.id(), new AuditEvent(e.at(), e.user(),
                                    e.action(), e.target(), e.outcome(), details))));
                        });
                    });
        }
        if (!ids.isEmpty()) {
            journal.append(ids, payloads, false);
            log.info("Audit journal: carried {} entr{} marked keep: always forward before deleting old segments",
                    ids.size(), ids.size() == 1 ? "y" : "ies");
        }
    }

    private Optional<JournalEntry> kept(byte[] payload) {
        try {
            JournalEntry entry = codec.decode(payload);
            return AuditAction.KEEP_ALWAYS.equals(entry.event().details().get(AuditAction.DETAIL_KEEP))
                    ? Optional.of(entry) : Optional.empty();
        } catch (PermanentException unreadable) {
            return Optional.empty();
        }
    }

    private void warnIfOverSize(JournalAppender journal) {
        long size = journal.segments().stream().mapToLong(SegmentInfo::bytes).sum();
        if (size > maxBytes && !overSizeWarned) {
            log.warn("Audit journal: {} holds {} bytes, more than max_bytes ({}), because its oldest segment was"
                    + " written less than min_age_days ({}) ago; it is deleted once older. Look at the newest"
                    + " entries for what is being journaled so fast", dir, size, maxBytes, minAge.toDays());
        }
        overSizeWarned = size > maxBytes;
    }

    /**
     * One page of entries matching {@code query}, newest first. Reads segments newest first and stops
     * as soon as the page is full and one more match shows there is an older page.
     *
     * @throws UncheckedIOException the journal cannot be read
     */
    public JournalPage query(JournalQuery query) {
        List<SegmentInfo> segments;
        lock.readLock().lock();
        try {
            segments = currentSegments();
            List<StoredEntry> matches = new ArrayList<>();
            for (int i = segments.size() - 1; i >= 0 && matches.size() <= query.limit(); i--) {
                SegmentInfo segment = segments.get(i);
                if (segment.empty() || !query.admitsSeq(segment.firstSeq())) {
                    continue;
                }
                JournalScan.newestFirst(segment, JournalAppender.maxBody(segmentBytes), query, codec, matches,
                        query.limit() + 1);
            }
            if (matches.size() > query.limit()) {
                List<StoredEntry> page = matches.subList(0, query.limit());
                return new JournalPage(page, OptionalLong.of(page.get(page.size() - 1).seq()));
            }
            return new JournalPage(matches, OptionalLong.empty());
        } catch (IOException e) {
            throw new UncheckedIOException("reading the audit journal in " + dir, e);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Under the read lock: the open journal's segments, opening it first if need be. */
    private List<SegmentInfo> currentSegments() throws IOException {
        JournalAppender journal = appender;
        if (journal != null) {
            return journal.segments();
        }
        lock.readLock().unlock();
        lock.writeLock().lock();
        try {
            return requireOpen().segments();
        } finally {
            lock.readLock().lock();
            lock.writeLock().unlock();
        }
    }

    /** Total bytes of the journal's segments, for status and tests. */
    public long sizeBytes() throws IOException {
        lock.readLock().lock();
        try {
            return currentSegments().stream().mapToLong(SegmentInfo::bytes).sum();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The sequence number of the newest stored entry (0 when none). */
    public long lastSeq() throws IOException {
        lock.writeLock().lock();
        try {
            return requireOpen().lastSeq();
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public ConnectionStatus probe() {
        lock.writeLock().lock();
        try {
            requireOpen();
            return lastError.map(error -> ConnectionStatus.down(clock.instant(), error))
                    .orElseGet(() -> ConnectionStatus.up(clock.instant()));
        } catch (IOException e) {
            return ConnectionStatus.down(clock.instant(), "audit journal in " + dir + " cannot be opened: " + e);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public boolean idempotent() {
        return true;
    }

    /** Under the write lock: the open journal, recovering the directory first when it is not open. */
    private JournalAppender requireOpen() throws IOException {
        if (closed) {
            throw new IOException("the audit store is closed");
        }
        if (appender == null) {
            try {
                appender = JournalAppender.open(dir, segmentBytes, files);
            } catch (IOException e) {
                lastError = Optional.of(e.toString());
                throw e;
            }
        }
        return appender;
    }

    private void discardAppender() {
        try {
            appender.close();
        } catch (IOException e) {
            // thrown away either way; recovery on the next call rebuilds the view from the files
        }
        appender = null;
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (appender != null) {
                discardAppender();
            }
            closed = true;
        } finally {
            lock.writeLock().unlock();
        }
    }
}
