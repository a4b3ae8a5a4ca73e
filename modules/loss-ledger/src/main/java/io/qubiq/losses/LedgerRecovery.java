package io.qubiq.losses;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the ledger does to its directory when it opens (the rules are in {@link LossLedger}): reads
 * every day file; refuses, before changing anything, when one is of a newer format; then deletes
 * what a cut-short compaction left, cuts torn tails, moves files without a readable header to
 * {@code corrupt/}, and counts the damage.
 *
 * @param sizes the bytes of every day file kept, oldest day first
 * @param damage what was found damaged
 */
record LedgerRecovery(TreeMap<LocalDate, Long> sizes, LedgerDamage damage) {

    private static final Logger log = LoggerFactory.getLogger(LossLedger.class);

    static LedgerRecovery run(Path dir) throws IOException {
        Map<Path, LedgerScan> scans = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            for (Path file : list.filter(f -> LedgerFormat.day(f).isPresent()).toList()) {
                LedgerScan scan = LedgerScan.read(file);
                if (!scan.headerValid() && scan.version() > LedgerFormat.VERSION) {
                    throw new LedgerVersionException(file, scan.version(), LedgerFormat.VERSION);
                }
                scans.put(file, scan);
            }
        }
        // every file is readable by this version: only now change anything
        try (Stream<Path> list = Files.list(dir)) {
            for (Path temp : list.filter(f -> f.getFileName().toString().endsWith(DayCompaction.TEMP_SUFFIX)).toList()) {
                Files.deleteIfExists(temp); // a compaction cut short: the day file it was to replace is intact
            }
        }
        LedgerDamage damage = LedgerDamage.NONE;
        TreeMap<LocalDate, Long> sizes = new TreeMap<>();
        for (Map.Entry<Path, LedgerScan> found : scans.entrySet()) {
            Path file = found.getKey();
            LedgerScan scan = found.getValue();
            damage = damage.plus(scan);
            long size = Files.size(file);
            if (!scan.headerValid()) {
                Path corrupt = Files.createDirectories(dir.resolve("corrupt"));
                Files.move(file, corrupt.resolve(file.getFileName() + "." + System.currentTimeMillis()),
                        StandardCopyOption.REPLACE_EXISTING);
                log.warn("Loss ledger file {} has no readable header; moved to {}", file, corrupt);
                continue;
            }
            if (scan.tornTail(size)) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate(scan.validEnd());
                    channel.force(true);
                }
                log.warn("Loss ledger file {}: cut {} damaged bytes at its end (offset {})", file,
                        size - scan.validEnd(), scan.validEnd());
                size = scan.validEnd();
            }
            sizes.put(LedgerFormat.day(file).orElseThrow(), size);
        }
        if (damage.any()) {
            log.warn("Loss ledger in {} found damage on open: {} damaged records ({} bytes) skipped, {} files set"
                    + " aside; the losses they described are not in its answers", dir, damage.records(),
                    damage.bytes(), damage.files());
        }
        return new LedgerRecovery(sizes, damage);
    }
}
