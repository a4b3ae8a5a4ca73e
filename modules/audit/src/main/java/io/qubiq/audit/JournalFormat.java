package io.qubiq.audit;

import io.qubiq.fileops.StoreFormat;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The byte layout of the local audit store's segment files (big-endian). The full description,
 * with the rules for recovery, is in {@code docs/formats/audit-journal.md}.
 *
 * <pre>
 * segment file  &lt;first seq, 20 digits&gt;.journal
 *   header      4  magic "QAJL"
 *               4  format version (1)
 *   records     one after another, nothing between them:
 *               4  body length n (16 + payload length)
 *               4  CRC32C of the n body bytes
 *               n  body: i64 sequence number, i64 entry id, payload ({@link JournalEntryCodec} bytes)
 * </pre>
 *
 * <p>The journal's directory also holds {@code FORMAT}, the store's format line ({@link #STORE}):
 * a journal marked by a newer gateway is refused on open before recovery touches it. A segment
 * header's version is not used for that (it has no checksum, so damage could pass for a newer
 * version): a header other than version 1 is damage, set aside by recovery.
 *
 * <p>Threading: stateless; callers bring their own {@link CRC32C}.
 */
final class JournalFormat {

    /** The directory's format line; raised by any gateway that writes what version 1 cannot read. */
    static final StoreFormat STORE = new StoreFormat("qubiq-audit-journal", "audit journal", 1);

    static final byte[] MAGIC = {'Q', 'A', 'J', 'L'};
    static final int VERSION = 1;
    static final int SEGMENT_HEADER_BYTES = 8;
    static final int FRAME_HEADER_BYTES = 8;
    static final int BODY_FIXED_BYTES = 16;
    static final String SUFFIX = ".journal";

    private JournalFormat() {
    }

    static String fileName(long firstSeq) {
        return String.format("%020d%s", firstSeq, SUFFIX);
    }

    /** The first sequence number a segment file is named after, if the name is a segment's. */
    static Optional<Long> firstSeq(Path file) {
        String name = file.getFileName().toString();
        if (name.length() != 20 + SUFFIX.length() || !name.endsWith(SUFFIX)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(name.substring(0, 20)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    static ByteBuffer segmentHeader() {
        return ByteBuffer.allocate(SEGMENT_HEADER_BYTES).put(MAGIC).putInt(VERSION).flip();
    }

    static int frameBytes(int payloadBytes) {
        return FRAME_HEADER_BYTES + BODY_FIXED_BYTES + payloadBytes;
    }

    /** Appends one record to {@code out}, which must have {@link #frameBytes} room. */
    static void putFrame(ByteBuffer out, long seq, long id, byte[] payload, CRC32C crc) {
        int bodyStart = out.position() + FRAME_HEADER_BYTES;
        out.putInt(BODY_FIXED_BYTES + payload.length).putInt(0).putLong(seq).putLong(id).put(payload);
        crc.reset();
        crc.update(out.array(), out.arrayOffset() + bodyStart, BODY_FIXED_BYTES + payload.length);
        out.putInt(bodyStart - 4, (int) crc.getValue());
    }
}
