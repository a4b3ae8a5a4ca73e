package io.qubiq.audit;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads the records of one segment file from the start, checking each, and stops at the first that
 * does not check out. The caller learns where the valid records end and why reading stopped;
 * nothing here changes a file.
 *
 * <p>A record checks out when its whole frame is in the file (within {@code limit}), its body length
 * is plausible, its CRC32C matches and its sequence number is above the previous one's.
 *
 * <p>Threading: stateless; each call opens its own stream.
 */
final class SegmentReader {

    /** Why reading stopped. */
    enum End {
        /** At the end of the file (or of {@code limit}): every byte belongs to a valid record. */
        CLEAN,
        /** A record is cut short by the end of the file: an append interrupted by a crash. */
        TORN,
        /** A record is complete but wrong (checksum, length, sequence): damage, not an interrupted append. */
        CORRUPT,
        /** The file is too short for its header: a segment whose creation was interrupted. */
        HEADER_TORN,
        /** The header is not a segment header of a known version. */
        HEADER_BAD
    }

    /**
     * @param validEnd the byte offset just past the last valid record (the header's end if none)
     * @param reason   for {@code CORRUPT} and {@code HEADER_BAD}, what was wrong at {@code validEnd}
     */
    record Result(End end, long validEnd, long lastSeq, int records, String reason) {
    }

    /** Receives each valid record, in file order. */
    @FunctionalInterface
    interface Visitor {
        void record(long seq, long id, byte[] payload, long offset);
    }

    private SegmentReader() {
    }

    /**
     * Reads {@code file} up to {@code limit} bytes.
     *
     * @param afterSeq every record's sequence number must be above this
     * @param maxBody  the largest plausible body length
     */
    static Result read(Path file, long limit, long afterSeq, int maxBody, Visitor visitor) throws IOException {
        limit = Math.min(limit, Files.size(file));
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 64 * 1024))) {
            byte[] header = new byte[JournalFormat.SEGMENT_HEADER_BYTES];
            if (limit < header.length || in.readNBytes(header, 0, header.length) < header.length) {
                return new Result(End.HEADER_TORN, 0, afterSeq, 0, "the file is shorter than a segment header");
            }
            ByteBuffer head = ByteBuffer.wrap(header);
            if (!Arrays.equals(Arrays.copyOf(header, 4), JournalFormat.MAGIC)
                    || head.getInt(4) != JournalFormat.VERSION) {
                return new Result(End.HEADER_BAD, 0, afterSeq, 0, "not an audit journal segment of format version "
                        + JournalFormat.VERSION);
            }
            CRC32C crc = new CRC32C();
            long offset = header.length;
            long lastSeq = afterSeq;
            int records = 0;
            while (offset < limit) {
                if (limit - offset < JournalFormat.FRAME_HEADER_BYTES) {
                    return new Result(End.TORN, offset, lastSeq, records, "record header cut short");
                }
                int length = in.readInt();
                int expectedCrc = in.readInt();
                if (length < JournalFormat.BODY_FIXED_BYTES || length > maxBody) {
                    return new Result(End.CORRUPT, offset, lastSeq, records, "implausible record length " + length);
                }
                if (limit - offset - JournalFormat.FRAME_HEADER_BYTES < length) {
                    return new Result(End.TORN, offset, lastSeq, records, "record cut short");
                }
                byte[] body = new byte[length];
                try {
                    in.readFully(body);
                } catch (EOFException e) {
                    return new Result(End.TORN, offset, lastSeq, records, "record cut short");
                }
                crc.reset();
                crc.update(body);
                if ((int) crc.getValue() != expectedCrc) {
                    return new Result(End.CORRUPT, offset, lastSeq, records, "checksum mismatch");
                }
                ByteBuffer fixed = ByteBuffer.wrap(body);
                long seq = fixed.getLong();
                long id = fixed.getLong();
                if (seq <= lastSeq) {
                    return new Result(End.CORRUPT, offset, lastSeq, records, "sequence number " + seq
                            + " does not follow " + lastSeq);
                }
                visitor.record(seq, id, Arrays.copyOfRange(body, JournalFormat.BODY_FIXED_BYTES, length), offset);
                lastSeq = seq;
                records++;
                offset += JournalFormat.FRAME_HEADER_BYTES + length;
            }
            return new Result(End.CLEAN, offset, lastSeq, records, "");
        }
    }
}
