package io.qubiq.pipeline;

import io.qubiq.buffer.DiskFull;
import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.NewerFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every pipeline's {@link PipelineState} in one file, {@code <dir>/pipelines.properties}: Java
 * properties, keys {@code <pipeline id>.<field>}, human-readable on purpose so an operator can
 * look. Written whole to {@code pipelines.properties.tmp}, forced to disk, renamed over the file,
 * and the directory forced: a crash leaves either the old or the new file, never a torn one, and
 * once {@link #save} returns the new one survives power loss (without the directory fsync an
 * operator's enable or disable could come back undone: {@code PipelineStatePowerLossTest}).
 * Counters written after the last save are lost in a crash (they are statistics; the data itself
 * is in the channels). Every change goes through a {@link FileOps}.
 *
 * <p>A file that cannot be read or parsed is moved aside to {@code pipelines.properties.corrupt}
 * with a warning, and the pipelines start fresh: statistics must never keep the gateway from
 * starting. The file carries {@code format=qubiq-pipeline-state/1}; a higher version was written by
 * a newer gateway and is refused ({@link NewerFormatException}), left as it is: its enabled flags may
 * hold an operator's choice that starting fresh would undo. Not thread-safe: the {@link Pipelines} component calls it from one thread at a time.
 */
public final class PipelineStateStore {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineStateStore.class);
    private static final String FILE = "pipelines.properties";
    /** Not a pipeline key: those all contain a dot before their field. */
    private static final String FORMAT_KEY = "format";
    private static final int VERSION = 1;
    private static final String FORMAT_FAMILY = "qubiq-pipeline-state/";
    private static final String FORMAT = FORMAT_FAMILY + VERSION;

    /** Writes the temp file whole and forces it: a seam so tests can make the disk full. */
    @FunctionalInterface
    interface TempWrite {
        void writeAndForce(Path temp, byte[] bytes) throws IOException;
    }

    /** Writes through {@code files}: create or truncate, write, fsync. */
    private static TempWrite durable(FileOps files) {
        return (path, bytes) -> {
            try (FileChannel channel = files.open(path, EnumSet.of(StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
        };
    }

    private final Path file;
    private final Path temp;
    private final FileOps files;
    private final TempWrite tempWrite;

    public PipelineStateStore(Path dir) {
        this(dir, FileOps.system());
    }

    /** With custom file operations: the power-loss tests record them. */
    public PipelineStateStore(Path dir, FileOps files) {
        this(dir, files, durable(files));
    }

    PipelineStateStore(Path dir, TempWrite tempWrite) {
        this(dir, FileOps.system(), tempWrite);
    }

    private PipelineStateStore(Path dir, FileOps files, TempWrite tempWrite) {
        this.file = dir.resolve(FILE);
        this.temp = dir.resolve(FILE + ".tmp");
        this.files = files;
        this.tempWrite = tempWrite;
    }

    public Path file() {
        return file;
    }

    /**
     * The stored states by pipeline id; empty when there is no file yet.
     *
     * @throws NewerFormatException the file was written by a newer gateway; it is left as it is
     */
    public Map<String, PipelineState> load() throws NewerFormatException {
        if (!Files.exists(file)) {
            return Map.of();
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
            checkFormat(properties.getProperty(FORMAT_KEY));
            return parse(properties);
        } catch (NewerFormatException newer) {
            throw newer;
        } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
            Path aside = file.resolveSibling(FILE + ".corrupt");
            LOG.warn("Pipeline state file {} is unreadable ({}); moved it to {} and starting the pipelines fresh",
                    file, e.getMessage(), aside);
            try {
                files.move(file, aside);
            } catch (IOException moveFailed) {
                LOG.warn("Could not move {} aside: {}", file, moveFailed.getMessage());
            }
            return Map.of();
        }
    }

    /**
     * Replaces the file with {@code states}, atomically and durably. When that fails (a full disk,
     * say) the file keeps its previous content, the temp file is removed, and the exception says
     * what failed with the path ("the disk is full" when it is).
     */
    public void save(Map<String, PipelineState> states) {
        Properties properties = new Properties();
        properties.setProperty(FORMAT_KEY, FORMAT);
        states.forEach((id, state) -> write(properties, id, state));
        try {
            files.createDirectories(file.getParent());
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            properties.store(out, "Qubiq pipeline state: enabled flags, counters, last errors. Written by the"
                    + " gateway; edit only while it is stopped.");
            tempWrite.writeAndForce(temp, out.toByteArray());
            try {
                files.move(temp, file);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            files.syncDirectory(file.getParent());
        } catch (IOException e) {
            try {
                files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // a leftover temp file is overwritten by the next save
            }
            throw new UncheckedIOException(DiskFull.describe("cannot write pipeline state " + file, e)
                    + "; the previous state file is kept", e);
        }
    }

    /** Refuses a newer format; a file without the key is from before it (version 1). */
    private void checkFormat(String format) throws NewerFormatException {
        if (format == null || format.equals(FORMAT)) {
            return;
        }
        if (!format.matches(FORMAT_FAMILY + "[0-9]{1,9}")) {
            throw new IllegalArgumentException(FORMAT_KEY + " is not " + FORMAT + ": " + format);
        }
        int found = Integer.parseInt(format.substring(FORMAT_FAMILY.length()));
        if (found > VERSION) {
            throw new NewerFormatException(file, "pipeline state", found, VERSION, file);
        }
    }

    private static void write(Properties p, String id, PipelineState s) {
        p.setProperty(id + ".enabled", Boolean.toString(s.enabled()));
        s.operatorChoiceOver().ifPresent(v -> p.setProperty(id + ".operator_choice_over", v.toString()));
        p.setProperty(id + ".events", Long.toString(s.events()));
        p.setProperty(id + ".filtered", Long.toString(s.filtered()));
        p.setProperty(id + ".failed", Long.toString(s.failed()));
        p.setProperty(id + ".emitted", Long.toString(s.emitted()));
        p.setProperty(id + ".refused", Long.toString(s.refused()));
        s.lastError().ifPresent(v -> p.setProperty(id + ".last_error", v));
        s.lastErrorAt().ifPresent(v -> p.setProperty(id + ".last_error_at", v.toString()));
        s.lastEventAt().ifPresent(v -> p.setProperty(id + ".last_event_at", v.toString()));
        s.nextRunAt().ifPresent(v -> p.setProperty(id + ".next_run_at", v.toString()));
    }

    private static Map<String, PipelineState> parse(Properties p) {
        Map<String, PipelineState> states = new LinkedHashMap<>();
        for (String key : new TreeSet<>(p.stringPropertyNames())) {
            if (!key.endsWith(".enabled")) {
                continue;
            }
            String id = key.substring(0, key.length() - ".enabled".length());
            states.put(id, new PipelineState(bool(p, id + ".enabled"),
                    text(p, id + ".operator_choice_over").map(PipelineStateStore::parseBoolean),
                    number(p, id + ".events"), number(p, id + ".filtered"), number(p, id + ".failed"),
                    number(p, id + ".emitted"), number(p, id + ".refused"), text(p, id + ".last_error"),
                    text(p, id + ".last_error_at").map(Instant::parse), text(p, id + ".last_event_at").map(Instant::parse),
                    text(p, id + ".next_run_at").map(Instant::parse)));
        }
        return states;
    }

    private static Optional<String> text(Properties p, String key) {
        return Optional.ofNullable(p.getProperty(key));
    }

    private static boolean bool(Properties p, String key) {
        return parseBoolean(p.getProperty(key));
    }

    private static boolean parseBoolean(String text) {
        if ("true".equals(text) || "false".equals(text)) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException("expected true or false, was " + text);
    }

    private static long number(Properties p, String key) {
        String text = p.getProperty(key, "0");
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a number: " + text, e);
        }
    }
}
