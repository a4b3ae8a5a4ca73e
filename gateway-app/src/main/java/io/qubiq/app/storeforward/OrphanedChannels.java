package io.qubiq.app.storeforward;

import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.BufferStats;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.console.StoreForwardAccess.OrphanedChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the store-and-forward directories under {@code <data>/connections/} that no configured
 * channel owns: an outbound connection renamed or removed while its buffer or quarantine still held
 * items. They are reported (a WARN line each at start, and {@code GET /api/v1/orphaned-channels}), never
 * delivered or deleted: naming a connection after the directory again picks its data up;
 * removing the directory by hand is the operator's decision. A directory with nothing in it is not
 * an orphan worth reporting.
 *
 * <p>The backlog is read by opening the orphan's buffer as its channel would and closing it again
 * (so a torn tail is cut as at that channel's next start); the quarantine by counting its entry
 * files. Nothing an orphan holds can stop the gateway: a buffer that cannot be read (damaged,
 * written by a newer gateway) is reported with the reason. Immutable after {@link #scan}; safe to share.
 */
public final class OrphanedChannels {

    private static final Logger log = LoggerFactory.getLogger(OrphanedChannels.class);

    private final List<OrphanedChannel> found;

    private OrphanedChannels(List<OrphanedChannel> found) {
        this.found = List.copyOf(found);
    }

    /** Scans {@code connectionsDir}; {@code owned} are the directory names of the configured channels. */
    public static OrphanedChannels scan(Path connectionsDir, Set<String> owned) {
        List<OrphanedChannel> found = new ArrayList<>();
        if (!Files.isDirectory(connectionsDir)) {
            return new OrphanedChannels(found);
        }
        try (Stream<Path> dirs = Files.list(connectionsDir)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                String name = dir.getFileName().toString();
                if (owned.contains(name)) {
                    continue;
                }
                OrphanedChannel orphan = measure(name, dir);
                if (orphan.bufferedItems() != 0 || orphan.quarantineEntries() > 0) {
                    found.add(orphan);
                    log.warn("Store-and-forward directory {} holds {} undelivered items ({} bytes) and {} quarantined"
                            + " items, but no configured connection is named '{}' (renamed or removed?){}. Nothing in it"
                            + " is delivered or deleted: name an outbound connection '{}' again to deliver it, or remove"
                            + " the directory once its data is not needed.", dir,
                            orphan.bufferedItems() < 0 ? "an unknown number of" : orphan.bufferedItems(),
                            orphan.bufferedBytes() < 0 ? "?" : orphan.bufferedBytes(), orphan.quarantineEntries(), name,
                            orphan.problem() == null ? "" : "; " + orphan.problem(), name);
                }
            }
        } catch (IOException e) {
            log.warn("Could not list {} to look for orphaned store-and-forward directories: {}", connectionsDir,
                    e.toString());
        }
        return new OrphanedChannels(found);
    }

    public List<OrphanedChannel> list() {
        return found;
    }

    private static OrphanedChannel measure(String name, Path dir) {
        long[] segments = sizes(dir.resolve("buffer"), file -> file.endsWith(".seg"));
        long[] quarantine = sizes(dir.resolve("quarantine"), file -> file.endsWith(".qentry"));
        long newest = Math.max(segments[2], quarantine[2]);
        long items = 0;
        long bytes = 0;
        String problem = null;
        if (segments[0] > 0) {
            try {
                BufferStats stats = backlog(dir.resolve("buffer"));
                items = stats.records();
                bytes = stats.usedBytes();
            } catch (Exception | LinkageError e) {
                items = -1;
                bytes = -1;
                problem = "its buffer could not be read: " + e.getMessage();
            }
        }
        return new OrphanedChannel(name, items, bytes, quarantine[0], quarantine[1],
                Instant.ofEpochMilli(Math.max(0, newest)), problem);
    }

    /**
     * The buffer's backlog, read by opening it as its channel would (recovery included: a torn tail is
     * cut as it would be on the channel's next start), then closing it.
     */
    private static BufferStats backlog(Path bufferDir) throws Exception {
        long segmentBytes;
        try (Stream<Path> files = Files.list(bufferDir)) {
            Path first = files.filter(f -> f.getFileName().toString().endsWith(".seg")).sorted().findFirst()
                    .orElseThrow();
            segmentBytes = Files.size(first);
        }
        BufferOptions options = new BufferOptions(bufferDir, (int) segmentBytes, 1L << 40, 0.8, 0.6,
                OverflowPolicy.REFUSE, Durability.PERIODIC, 1_000);
        SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none());
        try {
            return buffer.stats();
        } finally {
            buffer.close();
        }
    }

    /** {count, bytes, newest modification millis} of the regular files in {@code dir} that {@code counts}. */
    private static long[] sizes(Path dir, java.util.function.Predicate<String> counts) {
        long[] totals = {0, 0, 0};
        if (!Files.isDirectory(dir)) {
            return totals;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                if (attributes.isRegularFile() && counts.test(file.getFileName().toString())) {
                    totals[0]++;
                    totals[1] += attributes.size();
                    totals[2] = Math.max(totals[2], attributes.lastModifiedTime().toMillis());
                }
            }
        } catch (IOException e) {
            log.warn("Could not read {} fully: {}", dir, e.toString());
        }
        return totals;
    }
}
