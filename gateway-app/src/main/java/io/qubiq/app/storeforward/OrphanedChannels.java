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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store-and-forward directories under {@code <data>/connections/} that no configured channel owns:
 * an outbound connection renamed or removed while its buffer or quarantine still held items. Found at
 * start ({@link #scan}: a WARN line each, and {@code GET /api/v1/orphaned-channels}); never delivered or
 * deleted on their own. An operator may {@linkplain OrphanDiscard discard} one (every item counted in the
 * loss ledger first) or {@linkplain OrphanAttach attach} it to an outbound connection of the same kind;
 * either takes it off this list. Naming a connection after the directory again also picks its data up
 * at the next start. A directory with nothing in it is not an orphan worth reporting.
 *
 * <p><b>What a crash leaves.</b> A directory holding the {@value #DISCARDED} marker is one whose discard
 * had its loss durably in the ledger before the crash: {@link #scan} finishes deleting it, lists nothing
 * and counts nothing again.
 *
 * <p>The backlog is read by opening the orphan's buffer as its channel would and closing it again
 * (so a torn tail is cut as at that channel's next start); the quarantine by counting its entry
 * files. Nothing an orphan holds can stop the gateway: a buffer that cannot be read (damaged,
 * written by a newer gateway) is reported with the reason.
 *
 * <p>Threading: safe from any thread; the list changes only by {@link #remove}.
 */
public final class OrphanedChannels {

    private static final Logger log = LoggerFactory.getLogger(OrphanedChannels.class);

    /** The marker file of a discard whose loss is in the ledger: the directory is deleted, not listed. */
    public static final String DISCARDED = "DISCARDED";
    /** The file, in a channel's directory, that names the kind of connection that wrote it. */
    public static final String KIND_FILE = "kind";

    private final Path connectionsDir;
    private final Map<String, OrphanedChannel> found = new LinkedHashMap<>();

    private OrphanedChannels(Path connectionsDir, List<OrphanedChannel> found) {
        this.connectionsDir = connectionsDir;
        found.forEach(orphan -> this.found.put(orphan.connection(), orphan));
    }

    /** Scans {@code connectionsDir}; {@code owned} are the directory names of the configured channels. */
    public static OrphanedChannels scan(Path connectionsDir, Set<String> owned) {
        List<OrphanedChannel> found = new ArrayList<>();
        if (!Files.isDirectory(connectionsDir)) {
            return new OrphanedChannels(connectionsDir, found);
        }
        try (Stream<Path> dirs = Files.list(connectionsDir)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                String name = dir.getFileName().toString();
                if (owned.contains(name)) {
                    continue;
                }
                if (Files.exists(dir.resolve(DISCARDED))) {
                    log.info("Store-and-forward directory {} was being discarded when the gateway stopped (its items"
                            + " are in the loss ledger already): deleting the rest of it", dir);
                    OrphanFiles.deleteTree(dir);
                    continue;
                }
                OrphanedChannel orphan = measure(name, dir);
                if (orphan.bufferedItems() != 0 || orphan.quarantineEntries() > 0) {
                    found.add(orphan);
                    log.warn("Store-and-forward directory {} holds {} undelivered items ({} bytes) and {} quarantined"
                            + " items, but no configured connection is named '{}' (renamed or removed?){}. Nothing in it"
                            + " is delivered or deleted: attach it to an outbound connection or discard it on Settings"
                            + " → Store & Forward, or name an outbound connection '{}' again.", dir,
                            orphan.bufferedItems() < 0 ? "an unknown number of" : orphan.bufferedItems(),
                            orphan.bufferedBytes() < 0 ? "?" : orphan.bufferedBytes(), orphan.quarantineEntries(), name,
                            orphan.problem() == null ? "" : "; " + orphan.problem(), name);
                }
            }
        } catch (IOException e) {
            log.warn("Could not list {} to look for orphaned store-and-forward directories: {}", connectionsDir,
                    e.toString());
        }
        return new OrphanedChannels(connectionsDir, found);
    }

    /** The orphans, by name. */
    public synchronized List<OrphanedChannel> list() {
        return List.copyOf(found.values());
    }

    /** The orphan named {@code name}, as measured now, if it is still listed. */
    public synchronized Optional<OrphanedChannel> find(String name) {
        return found.containsKey(name) ? Optional.of(measure(name, directory(name))) : Optional.empty();
    }

    /**
     * Looks at directory {@code name} again, after its connection was removed while the gateway runs: listed
     * when it holds data, as a scan at start would list it.
     */
    public synchronized void look(String name) {
        OrphanedChannel orphan = measure(name, directory(name));
        if (orphan.bufferedItems() != 0 || orphan.quarantineEntries() > 0) {
            found.put(name, orphan);
            log.warn("Store-and-forward directory {} keeps {} undelivered items and {} quarantined items of the outbound"
                    + " connection removed: listed as an orphan to attach or discard on Settings → Store & Forward",
                    directory(name), orphan.bufferedItems(), orphan.quarantineEntries());
        }
    }

    /** Takes {@code name} off the list (it was discarded or attached, or a connection of that name owns it again). */
    public synchronized void remove(String name) {
        found.remove(name);
    }

    /** The directory of the orphan or channel named {@code name}. */
    public Path directory(String name) {
        return connectionsDir.resolve(name);
    }

    /** The kind of connection that wrote the channel directory {@code dir}, when it says. */
    public static Optional<String> kindOf(Path dir) {
        try {
            return Files.isRegularFile(dir.resolve(KIND_FILE))
                    ? Optional.of(Files.readString(dir.resolve(KIND_FILE)).trim()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static OrphanedChannel measure(String name, Path dir) {
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

    /** The bytes of the segment files in {@code dir}'s buffer: what an unreadable buffer is counted by. */
    static long segmentBytes(Path dir) {
        return sizes(dir.resolve("buffer"), file -> file.endsWith(".seg"))[1];
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
