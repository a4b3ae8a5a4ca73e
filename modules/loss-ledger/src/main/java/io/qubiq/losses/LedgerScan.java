package io.qubiq.losses;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * What one read of a day file found: its records in file order, and the damage between them.
 *
 * <p>A record counts when its length is possible, its CRC32C matches and its fields decode. Past a
 * record that does not, the scan looks for the next offset where one does, so a damaged record costs
 * only itself. Damage with no valid record after it is a torn tail: {@link #validEnd} is where the
 * file should be cut so that appends follow a valid record.
 *
 * @param entries the valid records, in file order
 * @param damagedRecords places where bytes failed their checks (a run of bad bytes counts once)
 * @param damagedBytes bytes that belonged to no valid record
 * @param validEnd the end of the last valid record (or of the header)
 * @param headerValid false when the file does not start with the ledger's magic and a known version
 * @param version the format version in the header, 0 when the header is not readable
 */
record LedgerScan(List<LossEntry> entries, long damagedRecords, long damagedBytes, long validEnd,
                  boolean headerValid, int version) {

    boolean tornTail(long fileSize) {
        return headerValid && validEnd < fileSize;
    }

    static LedgerScan read(Path file) throws IOException {
        return of(ByteBuffer.wrap(Files.readAllBytes(file)));
    }

    static LedgerScan of(ByteBuffer data) {
        int size = data.limit();
        if (size < LedgerFormat.FILE_HEADER_BYTES) {
            return new LedgerScan(List.of(), size == 0 ? 0 : 1, size, 0, false, 0);
        }
        byte[] magic = new byte[4];
        data.get(0, magic);
        int version = data.getInt(4);
        if (!Arrays.equals(magic, LedgerFormat.MAGIC) || version != LedgerFormat.VERSION) {
            return new LedgerScan(List.of(), 1, size, 0, false, Arrays.equals(magic, LedgerFormat.MAGIC) ? version : 0);
        }
        CRC32C crc = new CRC32C();
        List<LossEntry> entries = new ArrayList<>();
        long damagedRecords = 0;
        long damagedBytes = 0;
        int position = LedgerFormat.FILE_HEADER_BYTES;
        int validEnd = position;
        boolean inDamage = false;
        while (position < size) {
            Optional<LossEntry> entry = recordAt(data, position, crc);
            if (entry.isPresent()) {
                entries.add(entry.get());
                position += LedgerFormat.FRAME_HEADER_BYTES + data.getInt(position);
                validEnd = position;
                inDamage = false;
            } else {
                if (!inDamage) {
                    damagedRecords++;
                    inDamage = true;
                }
                damagedBytes++;
                position++;
            }
        }
        return new LedgerScan(List.copyOf(entries), damagedRecords, damagedBytes, validEnd, true, version);
    }

    /** The record that starts at {@code position}, if a whole valid one does. */
    private static Optional<LossEntry> recordAt(ByteBuffer data, int position, CRC32C crc) {
        if (position + LedgerFormat.FRAME_HEADER_BYTES > data.limit()) {
            return Optional.empty();
        }
        int length = data.getInt(position);
        if (length < LedgerFormat.MIN_BODY || length > LedgerFormat.MAX_BODY
                || (long) position + LedgerFormat.FRAME_HEADER_BYTES + length > data.limit()) {
            return Optional.empty();
        }
        int bodyStart = position + LedgerFormat.FRAME_HEADER_BYTES;
        crc.reset();
        crc.update(data.slice(bodyStart, length));
        if ((int) crc.getValue() != data.getInt(position + 4)) {
            return Optional.empty();
        }
        return LedgerFormat.decode(data.slice(bodyStart, length));
    }
}
