package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/**
 * Format versions 1 and 2 of a quarantine entry file: one entry, its texts and its item, sealed by
 * a checksum. All integers are big-endian; texts are UTF-8. Version 2 adds the ids the item had in
 * earlier stays ({@link QuarantineEntry#previousIds()}); an entry without any is still written as
 * version 1, so files stay readable by a gateway that knows only version 1 unless an item was
 * retried and failed again. Both versions are read.
 *
 * <pre>
 * offset        size  field
 *      0           4  magic 0x51554152 ("QUAR")
 *      4           2  format version, 1
 *      6           8  id (positive)
 *     14           1  failure class code: 1 TRANSIENT, 2 PERMANENT, 3 UNKNOWN_OUTCOME, 4 CONFIGURATION
 *     15           4  attempts (not negative)
 *     19           8  first failure, epoch milliseconds
 *     27           8  last failure, epoch milliseconds
 *     35           4  R, reason length in bytes
 *     39           R  reason
 *   39+R           4  E, error length in bytes
 *   43+R           E  error
 * 43+R+E           4  I, item length in bytes
 * 47+R+E           I  item, as the sink's codec encoded it
 * 47+R+E+I         4  CRC32C of bytes [0, 47+R+E+I)
 * </pre>
 *
 * A file is exactly {@code 51 + R + E + I} bytes. The failure class is stored as the explicit code
 * above, never as the enum's ordinal, so reordering {@link FailureClass} cannot change old files.
 * Times are kept to the millisecond: {@link #normalize} truncates (floors) finer instants.
 *
 * <p>Decoding checks, in this order: the size against the smallest possible entry, magic, version,
 * each length against the bytes left, the exact total size, the checksum, and finally the field
 * values (known class code, positive id, non-negative attempts). Any failure is a {@link
 * QuarantineEntryCorruptException} naming the file and the byte offset.
 *
 * <p><b>Threading.</b> Stateless; safe from any thread.
 */
final class QuarantineEntryFormat {

    static final int MAGIC = 0x51554152;
    static final short VERSION = 1;
    /** The version with previous ids; written only for an entry that has some. */
    static final short VERSION_WITH_HISTORY = 2;
    /** Fixed bytes: header (35), three length prefixes (12) and the trailer (4). */
    static final int FIXED_BYTES = 51;
    private static final int HEADER_BYTES = 35;
    private static final int SCRATCH_BYTES = 64 * 1024;

    private QuarantineEntryFormat() {
    }

    /** An entry read back from a file; {@code item} is null when only the metadata was read. */
    record Decoded(QuarantineEntry entry, byte[] item, long fileBytes) {
    }

    /**
     * Checks that {@code entry} may be stored with {@code item} and returns it as it will be read
     * back: times truncated to the millisecond.
     *
     * @throws IllegalArgumentException when {@code entry.itemBytes()} differs from the item's length
     *                                  or a time is outside the epoch-millisecond range
     */
    static QuarantineEntry normalize(QuarantineEntry entry, byte[] item) {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(item, "item");
        if (entry.itemBytes() != item.length) {
            throw new IllegalArgumentException("entry " + entry.id() + " says itemBytes=" + entry.itemBytes()
                    + " but the item has " + item.length + " bytes");
        }
        return new QuarantineEntry(entry.id(), entry.failureClass(), entry.reason(), entry.error(),
                entry.attempts(), toMillis(entry.firstFailure(), "firstFailure"),
                toMillis(entry.lastFailure(), "lastFailure"), entry.itemBytes(), entry.previousIds());
    }

    /** Bytes an entry occupies on disk: what {@link #encode} would produce. */
    static long encodedSize(QuarantineEntry entry) {
        return FIXED_BYTES + historyBytes(entry) + utf8Length(entry.reason()) + utf8Length(entry.error())
                + (long) entry.itemBytes();
    }

    /** The previous-id block of version 2, or nothing (version 1). */
    private static long historyBytes(QuarantineEntry entry) {
        return entry.previousIds().isEmpty() ? 0 : 4 + 8L * entry.previousIds().size();
    }

    /** The complete file content for one entry; {@code entry} must already be {@link #normalize}d. */
    static byte[] encode(QuarantineEntry entry, byte[] item) {
        byte[] reason = entry.reason().getBytes(StandardCharsets.UTF_8);
        byte[] error = entry.error().getBytes(StandardCharsets.UTF_8);
        long total = FIXED_BYTES + historyBytes(entry) + (long) reason.length + error.length + item.length;
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("entry " + entry.id() + " would take " + total
                    + " bytes; a quarantine entry must stay below 2 GiB");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total);
        boolean history = !entry.previousIds().isEmpty();
        out.putInt(MAGIC).putShort(history ? VERSION_WITH_HISTORY : VERSION).putLong(entry.id())
                .put(code(entry.failureClass()))
                .putInt(entry.attempts())
                .putLong(entry.firstFailure().toEpochMilli()).putLong(entry.lastFailure().toEpochMilli())
                .putInt(reason.length).put(reason)
                .putInt(error.length).put(error);
        if (history) {
            out.putInt(entry.previousIds().size());
            entry.previousIds().forEach(out::putLong);
        }
        out.putInt(item.length).put(item);
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array();
    }

    /**
     * Reads and verifies one entry file. The whole file is checksummed either way; the item's bytes
     * are kept only when {@code withItem} is true.
     *
     * @throws QuarantineEntryCorruptException the file is not a complete, intact version-1 entry
     * @throws IOException                     the file could not be read at all
     */
    static Decoded read(Path file, boolean withItem) throws IOException {
        long size = Files.size(file);
        if (size < FIXED_BYTES) {
            throw new QuarantineEntryCorruptException(file, size, "the file has " + size
                    + " bytes, fewer than the " + FIXED_BYTES + " of the smallest entry (a torn or truncated write)");
        }
        CRC32C crc = new CRC32C();
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), SCRATCH_BYTES)) {
            FieldReader in = new FieldReader(new CheckedInputStream(raw, crc), file, size);
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw in.corruptAt(0, String.format("magic is 0x%08X, not 0x%08X: not a quarantine entry", magic, MAGIC));
            }
            short version = in.readShort();
            if (version != VERSION && version != VERSION_WITH_HISTORY) {
                throw in.corruptAt(4, "format version " + version + " is not supported (this gateway reads versions "
                        + VERSION + " and " + VERSION_WITH_HISTORY + ")");
            }
            long id = in.readLong();
            byte classCode = in.readByte();
            int attempts = in.readInt();
            long first = in.readLong();
            long last = in.readLong();
            byte[] reason = in.readBlock("reason", 12);
            byte[] error = in.readBlock("error", 8);
            List<Long> previousIds = version == VERSION_WITH_HISTORY ? in.readIds(8) : List.of();
            int itemLength = in.readLength("item", 4);
            byte[] item = withItem ? in.readBytes(itemLength) : null;
            if (!withItem) {
                in.skipBytes(itemLength);
            }
            long expected = crc.getValue();
            long trailerOffset = in.offset();
            int stored = in.readInt();
            if ((int) expected != stored) {
                throw in.corruptAt(trailerOffset, String.format(
                        "checksum mismatch: stored CRC32C 0x%08X, computed 0x%08X", stored, (int) expected));
            }
            QuarantineEntry entry = entry(in, id, classCode, attempts, first, last, reason, error, itemLength,
                    previousIds);
            return new Decoded(entry, item, size);
        }
    }

    private static QuarantineEntry entry(FieldReader in, long id, byte classCode, int attempts, long first,
                                         long last, byte[] reason, byte[] error, int itemLength,
                                         List<Long> previousIds)
            throws QuarantineEntryCorruptException {
        FailureClass failureClass = failureClass(classCode);
        if (failureClass == null) {
            throw in.corruptAt(14, "unknown failure class code " + classCode);
        }
        try {
            return new QuarantineEntry(id, failureClass, new String(reason, StandardCharsets.UTF_8),
                    new String(error, StandardCharsets.UTF_8), attempts, Instant.ofEpochMilli(first),
                    Instant.ofEpochMilli(last), itemLength, previousIds);
        } catch (IllegalArgumentException e) {
            throw in.corruptAt(6, "invalid field value: " + e.getMessage());
        }
    }

    static byte code(FailureClass failureClass) {
        return switch (failureClass) {
            case TRANSIENT -> 1;
            case PERMANENT -> 2;
            case UNKNOWN_OUTCOME -> 3;
            case CONFIGURATION -> 4;
        };
    }

    private static FailureClass failureClass(byte code) {
        return switch (code) {
            case 1 -> FailureClass.TRANSIENT;
            case 2 -> FailureClass.PERMANENT;
            case 3 -> FailureClass.UNKNOWN_OUTCOME;
            case 4 -> FailureClass.CONFIGURATION;
            default -> null;
        };
    }

    private static Instant toMillis(Instant time, String field) {
        try {
            return Instant.ofEpochMilli(time.toEpochMilli());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(field + " " + time + " is outside the storable range", e);
        }
    }

    private static long utf8Length(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Sequential field reads that know the file size, so no length can run past the end. */
    private static final class FieldReader {
        private final InputStream in;
        private final Path file;
        private final long size;
        private final byte[] scratch = new byte[8];
        private long offset;

        FieldReader(InputStream in, Path file, long size) {
            this.in = in;
            this.file = file;
            this.size = size;
        }

        long offset() {
            return offset;
        }

        QuarantineEntryCorruptException corruptAt(long at, String problem) {
            return new QuarantineEntryCorruptException(file, at, problem);
        }

        byte readByte() throws IOException {
            fill(scratch, 1);
            return scratch[0];
        }

        short readShort() throws IOException {
            fill(scratch, 2);
            return ByteBuffer.wrap(scratch, 0, 2).getShort();
        }

        int readInt() throws IOException {
            fill(scratch, 4);
            return ByteBuffer.wrap(scratch, 0, 4).getInt();
        }

        long readLong() throws IOException {
            fill(scratch, 8);
            return ByteBuffer.wrap(scratch, 0, 8).getLong();
        }

        /** A length prefix, checked against the bytes left minus {@code bytesAfter} the block. */
        int readLength(String field, int bytesAfter) throws IOException {
            long at = offset;
            int length = readInt();
            long room = size - offset - bytesAfter;
            if (length < 0 || length > room) {
                throw corruptAt(at, field + " length " + length + " does not fit the file (" + Math.max(room, 0)
                        + " bytes left for it): a torn write or a damaged length");
            }
            if (field.equals("item") && length != room) {
                throw corruptAt(at, "the file has " + (room - length) + " unexpected bytes after the item");
            }
            return length;
        }

        /** Version 2's previous ids: a count, checked against the bytes left, then the ids. */
        List<Long> readIds(int bytesAfter) throws IOException {
            long at = offset;
            int count = readInt();
            long room = size - offset - bytesAfter;
            if (count < 0 || 8L * count > room) {
                throw corruptAt(at, "previous-id count " + count + " does not fit the file (" + Math.max(room, 0)
                        + " bytes left for them): a torn write or a damaged count");
            }
            List<Long> ids = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long previous = readLong();
                if (previous <= 0) {
                    throw corruptAt(offset - 8, "previous id " + previous + " is not positive");
                }
                ids.add(previous);
            }
            return ids;
        }

        byte[] readBlock(String field, int bytesAfter) throws IOException {
            return readBytes(readLength(field, bytesAfter));
        }

        byte[] readBytes(int length) throws IOException {
            byte[] bytes = new byte[length];
            fill(bytes, length);
            return bytes;
        }

        void skipBytes(int length) throws IOException {
            byte[] buffer = new byte[Math.min(length, SCRATCH_BYTES)];
            int left = length;
            while (left > 0) {
                int chunk = Math.min(left, buffer.length);
                fill(buffer, chunk);
                left -= chunk;
            }
        }

        private void fill(byte[] target, int length) throws IOException {
            int done = 0;
            while (done < length) {
                int n = in.read(target, done, length - done);
                if (n < 0) {
                    throw corruptAt(offset + done, "the file ended early (it shrank while being read)");
                }
                done += n;
            }
            offset += length;
        }
    }
}
