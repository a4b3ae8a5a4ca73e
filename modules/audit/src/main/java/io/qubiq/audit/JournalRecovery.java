package io.qubiq.audit;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a journal directory to a consistent state when the store opens: every segment is read and
 * checked record by record, and whatever does not check out is cut off, so that every segment ends
 * with a whole, valid record. Recovery never refuses to open because of damage; it sets damage
 * aside for the operator and goes on:
 * <ul>
 *   <li>a record cut short at the end of the newest segment (an append interrupted by a crash) is
 *       truncated away, with a warning;
 *   <li>a damaged record (checksum, length or sequence wrong) ends its segment's valid part: the
 *       bytes from it to the end are copied to {@code corrupt/} and cut off, with an error naming
 *       the file and offset;
 *   <li>a segment whose header is bad is moved whole to {@code corrupt/}; the newest segment with a
 *       header cut short (its creation was interrupted) is deleted.
 * </ul>
 * Each thing set aside gets a {@code .note} beside it saying what it is.
 *
 * <p>Threading: called by the store under its write lock, before anything else touches the files.
 */
final class JournalRecovery {

    private static final Logger log = LoggerFactory.getLogger(JournalRecovery.class);
    static final String CORRUPT = "corrupt";

    /** The segments after recovery, oldest first, and the ids of their newest entries. */
    record Recovered(List<SegmentInfo> segments, RecentIds ids) {
    }

    private JournalRecovery() {
    }

    static Recovered recover(Path dir, int maxBody, FileOps files) throws IOException {
        files.createDirectories(dir);
        List<Path> found = segmentFiles(dir);
        List<SegmentInfo> segments = new ArrayList<>();
        RecentIds ids = new RecentIds();
        long lastSeq = 0;
        boolean changed = false;
        for (int i = 0; i < found.size(); i++) {
            Path file = found.get(i);
            boolean newest = i == found.size() - 1;
            long firstSeq = JournalFormat.firstSeq(file).orElseThrow();
            long size = Files.size(file);
            SegmentReader.Result result = SegmentReader.read(file, size, Math.max(lastSeq, firstSeq - 1), maxBody,
                    (seq, id, payload, offset) -> ids.add(id));
            switch (result.end()) {
                case CLEAN -> {
                }
                case HEADER_TORN -> {
                    if (newest) {
                        log.warn("Audit journal: {} is shorter than a segment header (its creation was interrupted);"
                                + " deleting it", file);
                        files.deleteIfExists(file);
                    } else {
                        moveAside(dir, file, "a segment shorter than its header, found before newer segments", files);
                    }
                    changed = true;
                    continue;
                }
                case HEADER_BAD -> {
                    moveAside(dir, file, result.reason(), files);
                    changed = true;
                    continue;
                }
                case TORN -> {
                    if (newest) {
                        log.warn("Audit journal: the last record of {} is cut short at offset {} (an append"
                                + " interrupted by a crash); discarding its {} bytes", file, result.validEnd(),
                                size - result.validEnd());
                        truncate(file, result.validEnd(), files);
                    } else {
                        keepTailAndTruncate(dir, file, result, size, files);
                    }
                    changed = true;
                }
                case CORRUPT -> {
                    keepTailAndTruncate(dir, file, result, size, files);
                    changed = true;
                }
            }
            lastSeq = Math.max(lastSeq, result.lastSeq());
            segments.add(new SegmentInfo(file, firstSeq, result.records() == 0 ? firstSeq - 1 : result.lastSeq(),
                    result.validEnd()));
        }
        if (changed) {
            files.syncDirectory(dir);
        }
        return new Recovered(segments, ids);
    }

    private static List<Path> segmentFiles(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + JournalFormat.SUFFIX)) {
            for (Path file : stream) {
                if (Files.isRegularFile(file) && JournalFormat.firstSeq(file).isPresent()) {
                    files.add(file);
                }
            }
        }
        files.sort(Comparator.comparing(file -> JournalFormat.firstSeq(file).orElseThrow()));
        return files;
    }

    private static void keepTailAndTruncate(Path dir, Path file, SegmentReader.Result result, long size,
                                            FileOps files) throws IOException {
        Path corrupt = dir.resolve(CORRUPT);
        files.createDirectories(corrupt);
        Path copy = freeName(corrupt, file.getFileName() + "." + result.validEnd() + ".damaged");
        try (InputStream in = Files.newInputStream(file); OutputStream out = Files.newOutputStream(copy)) {
            in.skipNBytes(result.validEnd());
            in.transferTo(out);
        }
        note(copy, "Bytes " + result.validEnd() + " to " + size + " of audit journal segment " + file.getFileName()
                + ": " + result.reason() + " at offset " + result.validEnd() + ". The journal cut them off and"
                + " goes on without them; the records in them are not served. Keep this file as evidence.");
        log.error("Audit journal: {} is damaged at offset {} ({}); its {} bytes from there were copied to {} and"
                + " cut off. Entries in them are no longer listed; look at the copy and the disk.",
                file, result.validEnd(), result.reason(), size - result.validEnd(), copy);
        truncate(file, result.validEnd(), files);
        files.syncDirectory(corrupt);
    }

    private static void moveAside(Path dir, Path file, String reason, FileOps files) throws IOException {
        Path corrupt = dir.resolve(CORRUPT);
        files.createDirectories(corrupt);
        Path target = freeName(corrupt, file.getFileName().toString());
        files.move(file, target);
        note(target, "Audit journal segment " + file.getFileName() + " was set aside: " + reason
                + ". The journal goes on without it; its entries are not served.");
        log.error("Audit journal: segment {} is unreadable ({}); moved it to {}. Its entries are no longer listed.",
                file, reason, target);
        files.syncDirectory(corrupt);
    }

    private static void note(Path file, String text) throws IOException {
        Files.writeString(file.resolveSibling(file.getFileName() + ".note"), text + System.lineSeparator(),
                StandardCharsets.UTF_8);
    }

    private static Path freeName(Path folder, String name) {
        Path target = folder.resolve(name);
        for (int n = 1; Files.exists(target); n++) {
            target = folder.resolve(name + "." + n);
        }
        return target;
    }

    private static void truncate(Path file, long size, FileOps files) throws IOException {
        try (FileChannel channel = files.open(file, EnumSet.of(StandardOpenOption.WRITE))) {
            channel.truncate(size);
            channel.force(true);
        }
    }
}
