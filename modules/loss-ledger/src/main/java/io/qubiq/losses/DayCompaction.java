package io.qubiq.losses;

import io.qubiq.fileops.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Rewrites a day file with one record per {@link LossEntry.Key}: the per-flush sums of a loss storm
 * (one record a second) become one record per minute. The new file is written beside the old one as
 * {@code <name>.tmp}, fsynced, and renamed over it, so a crash leaves either the old file or the new
 * one (and perhaps a {@code .tmp} that the next open deletes). A file with damage is left as it is,
 * so the damaged bytes stay there to be looked at.
 *
 * <p>Threading: called with the ledger's file lock held.
 */
final class DayCompaction {

    static final String TEMP_SUFFIX = ".tmp";

    private DayCompaction() {
    }

    /** The file's new size, or empty when it was left as it was (damaged, or nothing to merge). */
    static OptionalLong compact(Path file, CRC32C crc) throws IOException {
        LedgerScan scan = LedgerScan.read(file);
        if (!scan.headerValid() || scan.damagedRecords() > 0) {
            return OptionalLong.empty();
        }
        Map<LossEntry.Key, LossEntry> merged = new LinkedHashMap<>();
        scan.entries().forEach(entry -> merged.merge(entry.key(), entry, LossEntry::plus));
        if (merged.size() == scan.entries().size()) {
            return OptionalLong.empty();
        }
        Path temp = file.resolveSibling(file.getFileName() + TEMP_SUFFIX);
        try {
            try (FileChannel channel = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), OwnerOnly.fileAttribute())) {
                write(channel, LedgerFormat.fileHeader());
                for (LossEntry entry : merged.values()) {
                    write(channel, LedgerFormat.frame(entry, crc));
                }
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // a full disk, say: the day file is as it was; its half-written copy must not hold the space
            try {
                Files.deleteIfExists(temp);
            } catch (IOException notDeleted) {
                e.addSuppressed(notDeleted);
            }
            throw e;
        }
        return OptionalLong.of(Files.size(file));
    }

    private static void write(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }
}
