package io.qubiq.losses;

import io.qubiq.core.event.LossReason;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The byte layout of a loss ledger day file (big-endian). See {@link LossLedger} for the rules.
 *
 * <pre>
 * day file     losses-YYYY-MM-DD.ledger (the UTC day of the entries' minute)
 *   header     4  magic "QLOS"
 *              4  format version (1)
 *   records    one after another, nothing between them:
 *              4  body length n (MIN_BODY..MAX_BODY)
 *              4  CRC32C of the n body bytes
 *              n  body:
 *                 8  minute, epoch milliseconds
 *                 8  first noticed, epoch milliseconds
 *                 8  last noticed, epoch milliseconds
 *                 8  items
 *                 8  bytes
 *                 8  first sequence (0: not known)
 *                 8  last sequence (0: not known)
 *                 4  reports summed
 *                 then six strings, each 2 bytes length and UTF-8 bytes:
 *                 component, connection, reason label, tag ("" none), who ("" none), detail
 * </pre>
 *
 * <p>A record is the sum of the losses of one {@link LossEntry.Key} since the previous flush, so
 * one key may have several records in a file; readers add them up.
 *
 * <p>Threading: stateless; callers bring their own {@link CRC32C}.
 */
final class LedgerFormat {

    static final byte[] MAGIC = {'Q', 'L', 'O', 'S'};
    static final int VERSION = 1;
    static final int FILE_HEADER_BYTES = 8;
    static final int FRAME_HEADER_BYTES = 8;
    static final int MIN_BODY = 7 * 8 + 4 + 6 * 2;
    static final int MAX_BODY = 64 * 1024;
    /** Longer strings are cut to this many characters, so a body always fits {@link #MAX_BODY}. */
    static final int MAX_CHARS = 2000;
    private static final String PREFIX = "losses-";
    private static final String SUFFIX = ".ledger";

    private LedgerFormat() {
    }

    static String fileName(LocalDate day) {
        return PREFIX + day + SUFFIX;
    }

    static LocalDate dayOf(Instant minute) {
        return LocalDate.ofInstant(minute, ZoneOffset.UTC);
    }

    /** The day a file holds, if its name is a day file's. */
    static Optional<LocalDate> day(Path file) {
        String name = file.getFileName().toString();
        if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDate.parse(name.substring(PREFIX.length(), name.length() - SUFFIX.length())));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    static ByteBuffer fileHeader() {
        return ByteBuffer.allocate(FILE_HEADER_BYTES).put(MAGIC).putInt(VERSION).flip();
    }

    /** One framed record, ready to write. */
    static ByteBuffer frame(LossEntry entry, CRC32C crc) {
        byte[][] strings = {
            utf8(entry.component()), utf8(entry.connection()), utf8(entry.reason().label()),
            utf8(entry.tag().orElse("")), utf8(entry.who().orElse("")), utf8(entry.detail())
        };
        int body = MIN_BODY;
        for (byte[] s : strings) {
            body += s.length;
        }
        ByteBuffer out = ByteBuffer.allocate(FRAME_HEADER_BYTES + body);
        out.putInt(body).putInt(0)
                .putLong(entry.minute().toEpochMilli())
                .putLong(entry.firstAt().toEpochMilli())
                .putLong(entry.lastAt().toEpochMilli())
                .putLong(entry.items())
                .putLong(entry.bytes())
                .putLong(entry.firstSequence())
                .putLong(entry.lastSequence())
                .putInt((int) Math.min(Integer.MAX_VALUE, entry.reports()));
        for (byte[] s : strings) {
            out.putShort((short) s.length).put(s);
        }
        crc.reset();
        crc.update(out.array(), FRAME_HEADER_BYTES, body);
        out.putInt(4, (int) crc.getValue());
        return out.flip();
    }

    /**
     * The entry a body holds whose CRC already matched; empty when its fields do not make sense (an
     * unknown reason, a string running past the end), which the reader treats as damage.
     */
    static Optional<LossEntry> decode(ByteBuffer body) {
        try {
            Instant minute = Instant.ofEpochMilli(body.getLong());
            Instant firstAt = Instant.ofEpochMilli(body.getLong());
            Instant lastAt = Instant.ofEpochMilli(body.getLong());
            long items = body.getLong();
            long bytes = body.getLong();
            long firstSeq = body.getLong();
            long lastSeq = body.getLong();
            long reports = body.getInt();
            String component = string(body);
            String connection = string(body);
            Optional<LossReason> reason = LossReason.ofLabel(string(body));
            String tag = string(body);
            String who = string(body);
            String detail = string(body);
            if (reason.isEmpty() || body.hasRemaining() || items < 0 || bytes < 0 || reports < 1) {
                return Optional.empty();
            }
            return Optional.of(new LossEntry(minute, firstAt, lastAt, component, connection, present(tag),
                    reason.get(), items, bytes, firstSeq, lastSeq, present(who), reports, detail));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> present(String s) {
        return s.isEmpty() ? Optional.empty() : Optional.of(s);
    }

    private static byte[] utf8(String s) {
        String cut = s.length() > MAX_CHARS ? s.substring(0, MAX_CHARS) : s;
        return cut.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(ByteBuffer body) {
        int length = Short.toUnsignedInt(body.getShort());
        byte[] bytes = new byte[length];
        body.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
