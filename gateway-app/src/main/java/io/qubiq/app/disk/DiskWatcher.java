package io.qubiq.app.disk;

import io.qubiq.app.config.DiskConfig;
import io.qubiq.app.lifecycle.DegradedPartSource;
import io.qubiq.core.disk.DiskReserve;
import io.qubiq.core.disk.DiskSpace;
import io.qubiq.core.disk.DiskSpaceCheck;
import io.qubiq.core.disk.DiskState;
import io.qubiq.core.disk.SpaceSource;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Periodic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples the free space of the data directory (and the embedded QuestDB's) every
 * {@code disk.check_interval_ms}, raises and clears the disk-space alarm through a
 * {@link DiskSpaceCheck} per directory, lists a critical disk on /health as DEGRADED, and answers
 * {@link DiskReserve#critical()} for the store-and-forward channels from a volatile field.
 *
 * <p>Directories given as {@code measured} (the embedded QuestDB's) also have their own size summed,
 * at most once a minute ({@link #USAGE_EVERY_MS}), for /health, the console and
 * {@code qubiq_dir_used_bytes}.
 *
 * <p>A directory that does not exist yet (QuestDB's before its first start) is sampled at its
 * nearest existing parent. A sample that fails is logged once and leaves the state as it was.
 *
 * <p><b>Threading.</b> Samples are taken on the lifecycle thread at {@link #start} (so the state is
 * known before any channel appends) and then on one scheduler thread (one sample at a time); everything read from outside
 * ({@link #critical()}, {@link #checks()}, {@link #degradedParts()}) is safe from any thread.
 */
public final class DiskWatcher implements Component, DegradedPartSource, DiskReserve {

    private static final Logger log = LoggerFactory.getLogger(DiskWatcher.class);

    private final List<Watched> watched;
    private final SpaceSource source;
    private final long intervalMs;
    private volatile boolean critical;
    private ScheduledExecutorService scheduler;

    /** How often a measured directory's size is summed: walking a tree costs more than a statfs. */
    static final long USAGE_EVERY_MS = 60_000;

    private final Object sampling = new Object();
    private final java.util.Set<Path> measured;
    private final java.util.Map<Path, Long> usedBytes = new java.util.concurrent.ConcurrentHashMap<>();
    private long lastUsageNanos;

    /** One watched directory; {@code failing} is touched by the sampling thread only. */
    private static final class Watched {
        final Path dir;
        final DiskSpaceCheck check;
        boolean failing;

        Watched(Path dir, DiskSpaceCheck check) {
            this.dir = dir;
            this.check = check;
        }

        Path dir() {
            return dir;
        }

        DiskSpaceCheck check() {
            return check;
        }
    }

    public DiskWatcher(DiskConfig config, List<Path> dirs, SpaceSource source, EventPublisher events, Clock clock) {
        this(config, dirs, List.of(), source, events, clock);
    }

    /** @param measured those of {@code dirs} whose own size is summed as well */
    public DiskWatcher(DiskConfig config, List<Path> dirs, List<Path> measured, SpaceSource source,
                       EventPublisher events, Clock clock) {
        this.measured = measured.stream().map(p -> p.toAbsolutePath().normalize())
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.source = source;
        this.intervalMs = config.checkIntervalMs();
        List<Watched> list = new ArrayList<>();
        for (Path dir : dirs) {
            Path absolute = dir.toAbsolutePath().normalize();
            list.add(new Watched(absolute, new DiskSpaceCheck(absolute.toString(), config.warning(), config.critical(),
                    events, clock)));
        }
        this.watched = List.copyOf(list);
    }

    @Override
    public String name() {
        return "disk-watcher";
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        checkNow();
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "disk-watcher");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(Periodic.guarded(this::checkNow, e -> log.error("Disk check failed: {}; it runs again at the next interval", e.toString(), e)), intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() throws InterruptedException {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        scheduler.awaitTermination(5, TimeUnit.SECONDS);
        scheduler = null;
    }

    /** Samples every directory once; called by the scheduler, and by tests. */
    public void checkNow() {
        synchronized (sampling) {
            sampleAll();
        }
    }

    private void sampleAll() {
        boolean anyCritical = false;
        for (Watched w : watched) {
            Optional<DiskSpace> space = sample(w);
            space.flatMap(w.check()::update).ifPresent(change -> {
                switch (change.to()) {
                    case CRITICAL -> log.error(change.alarm().message());
                    case WARNING -> log.warn(change.alarm().message());
                    case OK -> log.info(change.alarm().message());
                }
            });
            anyCritical |= w.check().state() == DiskState.CRITICAL;
        }
        critical = anyCritical;
        long now = System.nanoTime();
        if (!measured.isEmpty() && (lastUsageNanos == 0 || now - lastUsageNanos >= USAGE_EVERY_MS * 1_000_000)) {
            lastUsageNanos = now;
            measured.forEach(dir -> sizeOf(dir).ifPresent(bytes -> usedBytes.put(dir, bytes)));
        }
    }

    /** The bytes of every regular file under {@code dir}; empty when it does not exist or cannot be read. */
    private static Optional<Long> sizeOf(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        long[] total = new long[1];
        try {
            Files.walkFileTree(dir, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path file,
                                                               java.nio.file.attribute.BasicFileAttributes attrs) {
                    total[0] += attrs.isRegularFile() ? attrs.size() : 0;
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
                    return java.nio.file.FileVisitResult.CONTINUE; // a file QuestDB removed meanwhile
                }
            });
            return Optional.of(total[0]);
        } catch (IOException e) {
            log.debug("Cannot sum the size of {}: {}", dir, e.toString());
            return Optional.empty();
        }
    }

    /** True when {@code dir}'s own size is summed. */
    public boolean measures(Path dir) {
        return measured.contains(dir.toAbsolutePath().normalize());
    }

    /** What {@code dir} holds, for a measured directory once it has been summed. */
    public Optional<Long> usedBytes(Path dir) {
        return Optional.ofNullable(usedBytes.get(dir.toAbsolutePath().normalize()));
    }

    private Optional<DiskSpace> sample(Watched w) {
        Path at = w.dir();
        while (at != null && !Files.exists(at)) {
            at = at.getParent();
        }
        try {
            DiskSpace space = source.sample(at == null ? w.dir() : at);
            w.failing = false;
            return Optional.of(space);
        } catch (IOException | RuntimeException e) {
            if (!w.failing) {
                log.warn("Cannot read the free space of {}: {}; its disk state stays {}", w.dir(), e.toString(),
                        w.check().state());
                w.failing = true;
            }
            return Optional.empty();
        }
    }

    @Override
    public boolean critical() {
        return critical;
    }

    /** One check per watched directory, in the order given. */
    public List<DiskSpaceCheck> checks() {
        return watched.stream().map(Watched::check).toList();
    }

    /** What /health and the console header show: each directory's last sample and state. */
    public List<io.qubiq.console.DiskStatus> statuses() {
        return watched.stream()
                .flatMap(w -> w.check().lastSample().stream().map(s -> new io.qubiq.console.DiskStatus(
                        w.dir().toString(), w.check().state().name(), s.freeBytes(), s.totalBytes(),
                        usedBytes(w.dir()))))
                .toList();
    }

    @Override
    public List<DegradedPart> degradedParts() {
        List<DegradedPart> parts = new ArrayList<>();
        for (Watched w : watched) {
            if (w.check().state() == DiskState.CRITICAL) {
                parts.add(new DegradedPart("disk:" + w.dir(), DiskState.CRITICAL.name(),
                        w.check().lastSample().map(s -> String.format("disk almost full: %d bytes (%.1f %%) free;"
                                + " buffers stop growing until space is freed", s.freeBytes(), s.freePercent()))
                                .orElse("disk almost full")));
            }
        }
        return parts;
    }
}
