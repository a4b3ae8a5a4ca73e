package io.qubiq.audit;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.StoreFormat;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The open journal: the recovered segment list, the newest segment open for appending, the next
 * sequence number and the ids of the newest entries. Appends whole batches and fsyncs them; starts
 * a new segment when the next record would not fit; deletes whole oldest segments for retention
 * (by age, and by size only once they are older than the minimum age).
 *
 * <p>After an {@link IOException} from any method the appender must be closed and thrown away: its
 * in-memory view may be ahead of or behind the files, and only {@link #open} (recovery) rebuilds it.
 * A write that fails part way (a full disk) first cuts the segment back to its last whole record,
 * so recovery finds nothing torn.
 *
 * <p>Threading: not thread-safe; owned by {@link LocalAuditStore} under its write lock.
 */
final class JournalAppender implements Closeable {

    private final Path dir;
    private final FileOps files;
    private final int segmentBytes;
    private final List<SegmentInfo> segments;
    private final RecentIds ids;
    private final CRC32C crc = new CRC32C();
    private FileChannel active;
    private long lastSeq;

    private JournalAppender(Path dir, FileOps files, int segmentBytes, List<SegmentInfo> segments,
                            RecentIds ids) {
        this.dir = dir;
        this.files = files;
        this.segmentBytes = segmentBytes;
        this.segments = new ArrayList<>(segments);
        this.ids = ids;
    }

    static int maxBody(int segmentBytes) {
        return segmentBytes - JournalFormat.SEGMENT_HEADER_BYTES - JournalFormat.FRAME_HEADER_BYTES;
    }

    /** Recovers {@code dir} (see {@link JournalRecovery}) and opens its newest segment for appending. */
    static JournalAppender open(Path dir, int segmentBytes, FileOps files) throws IOException {
        StoreFormat.Check format = JournalFormat.STORE.check(dir); // before recovery changes anything
        JournalRecovery.Recovered recovered = JournalRecovery.recover(dir, maxBody(segmentBytes), files);
        JournalFormat.STORE.record(dir, format, files);
        JournalAppender appender = new JournalAppender(dir, files, segmentBytes, recovered.segments(),
                recovered.ids());
        try {
            appender.lastSeq = recovered.segments().stream().mapToLong(SegmentInfo::lastSeq).max().orElse(0);
            if (appender.segments.isEmpty()) {
                appender.startSegment();
            } else {
                SegmentInfo newest = appender.segments.get(appender.segments.size() - 1);
                appender.active = files.open(newest.file(), EnumSet.of(StandardOpenOption.WRITE));
                appender.active.position(newest.bytes());
            }
        } catch (IOException e) {
            appender.close();
            throw e;
        }
        return appender;
    }

    /**
     * Appends the entries whose ids are not stored yet, in order, giving each the next sequence
     * number, and fsyncs them. Returns how many were stored (the others were already there).
     *
     * @param payloads {@link JournalEntryCodec} bytes, each small enough for a segment
     */
    int append(List<Long> entryIds, List<byte[]> payloads) throws IOException {
        return append(entryIds, payloads, true);
    }

    /**
     * As {@link #append(List, List)}; with {@code skipKnown} false, entries are stored even when their
     * id is among the newest ones (for carrying a kept entry forward, see {@link LocalAuditStore}).
     */
    int append(List<Long> entryIds, List<byte[]> payloads, boolean skipKnown) throws IOException {
        Set<Long> inBatch = new HashSet<>();
        List<Long> stored = new ArrayList<>();
        SegmentInfo current = newest();
        ByteBuffer pending = ByteBuffer.allocate(Math.min(segmentBytes, totalFrameBytes(payloads)));
        long seq = lastSeq;
        for (int i = 0; i < payloads.size(); i++) {
            long id = entryIds.get(i);
            if (skipKnown && ids.contains(id) || !inBatch.add(id)) {
                continue;
            }
            int frame = JournalFormat.frameBytes(payloads.get(i).length);
            if (current.bytes() + pending.position() + frame > segmentBytes) {
                current = flush(current, pending, seq);
                if (!current.empty()) {
                    active.force(false);
                    current = startSegment(seq + 1);
                }
            }
            if (pending.remaining() < frame) {
                current = flush(current, pending, seq);
                pending = ByteBuffer.allocate(Math.max(frame, pending.capacity()));
            }
            JournalFormat.putFrame(pending, ++seq, id, payloads.get(i), crc);
            stored.add(id);
        }
        flush(current, pending, seq);
        active.force(false);
        lastSeq = seq;
        stored.forEach(ids::add);
        return stored.size();
    }

    /** Writes what {@code pending} holds to the active segment and records the segment's new extent. */
    private SegmentInfo flush(SegmentInfo current, ByteBuffer pending, long seq) throws IOException {
        if (pending.position() == 0) {
            return current;
        }
        pending.flip();
        int written = pending.remaining();
        try {
            while (pending.hasRemaining()) {
                active.write(pending);
            }
        } catch (IOException e) {
            // a full disk takes part of a record: cut it off, so the segment ends at a whole record
            try {
                active.truncate(current.bytes());
            } catch (IOException notCut) {
                e.addSuppressed(notCut); // recovery cuts the torn tail when the journal is reopened
            }
            throw e;
        }
        pending.clear();
        SegmentInfo updated = current.appended(seq, current.bytes() + written);
        segments.set(segments.size() - 1, updated);
        return updated;
    }

    private static int totalFrameBytes(List<byte[]> payloads) {
        long total = 0;
        for (byte[] payload : payloads) {
            total += JournalFormat.frameBytes(payload.length);
        }
        return (int) Math.min(Integer.MAX_VALUE, total);
    }

    private SegmentInfo startSegment() throws IOException {
        return startSegment(lastSeq + 1);
    }

    /** Creates the segment whose first record will have {@code firstSeq}, writes its header, makes it active. */
    private SegmentInfo startSegment(long firstSeq) throws IOException {
        if (active != null) {
            active.close();
            active = null;
        }
        Path file = dir.resolve(JournalFormat.fileName(firstSeq));
        active = files.open(file, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
        ByteBuffer header = JournalFormat.segmentHeader();
        while (header.hasRemaining()) {
            active.write(header);
        }
        active.force(true);
        files.syncDirectory(dir);
        SegmentInfo segment = new SegmentInfo(file, firstSeq, firstSeq - 1, JournalFormat.SEGMENT_HEADER_BYTES);
        segments.add(segment);
        return segment;
    }

    /**
     * The oldest segments retention removes, never the newest: while the oldest segment was last written
     * before {@code now - maxAge}, or the journal is over {@code maxBytes} and the oldest segment was last
     * written before {@code now - minAge}. Changes nothing; {@link #deleteOldest} removes them.
     */
    List<SegmentInfo> expired(long maxBytes, Optional<Duration> maxAge, Duration minAge, Instant now)
            throws IOException {
        long total = segments.stream().mapToLong(SegmentInfo::bytes).sum();
        int count = 0;
        while (count < segments.size() - 1) {
            SegmentInfo oldest = segments.get(count);
            FileTime written = Files.getLastModifiedTime(oldest.file());
            boolean young = !minAge.isZero() && written.compareTo(FileTime.from(now.minus(minAge))) >= 0;
            boolean overSize = total > maxBytes && !young;
            boolean tooOld = maxAge.isPresent() && written.compareTo(FileTime.from(now.minus(maxAge.get()))) < 0;
            if (!overSize && !tooOld) {
                break;
            }
            total -= oldest.bytes();
            count++;
        }
        return List.copyOf(segments.subList(0, count));
    }

    /** Deletes the {@code count} oldest segments (never the newest); returns how many went. */
    int deleteOldest(int count) throws IOException {
        int deleted = 0;
        while (deleted < count && segments.size() > 1) {
            files.deleteIfExists(segments.get(0).file());
            segments.remove(0);
            deleted++;
        }
        if (deleted > 0) {
            files.syncDirectory(dir);
        }
        return deleted;
    }

    private SegmentInfo newest() {
        return segments.get(segments.size() - 1);
    }

    List<SegmentInfo> segments() {
        return List.copyOf(segments);
    }

    long lastSeq() {
        return lastSeq;
    }

    long highestId() {
        return ids.highest();
    }

    @Override
    public void close() throws IOException {
        if (active != null) {
            active.close();
            active = null;
        }
    }
}
