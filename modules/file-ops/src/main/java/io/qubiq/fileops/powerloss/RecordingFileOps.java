package io.qubiq.fileops.powerloss;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link FileOps} on the real file system that also logs, in order, every operation under one
 * directory that could change what a power loss leaves: file creates, writes, truncations, fsyncs,
 * renames, deletes, directory creates and directory fsyncs. {@link CrashStates} turns the log into
 * the states a power cut could leave, and {@link CrashState#replay} writes one into a fresh
 * directory.
 *
 * <p><b>Memory mappings.</b> Bytes stored through a mapping never pass through here, so every
 * file mapped for writing is compared with its last logged image before each logged operation
 * (and on {@link #observe()}): each changed run of bytes (runs closer than {@value #MERGE_GAP}
 * bytes joined) is logged as a {@link FileOp.Write} at that point. A workload that wants each
 * record as its own write calls {@link #observe()} (or {@link #note}) after each one.
 *
 * <p><b>Files outside the directory</b> pass through unlogged; a file inside it that this
 * recorder did not create is logged, when first opened, as created with its current bytes.
 *
 * <p><b>Threading.</b> Safe for concurrent use: one lock orders the log, and each real operation
 * runs under it, so the log's order is the order the file system saw.
 */
public final class RecordingFileOps implements FileOps {
  private static final int MERGE_GAP = 64;

  private final Path root;
  private final FileOps real = FileOps.system();
  private final List<FileOp> log = new ArrayList<>();
  private final Map<String, Integer> names = new HashMap<>();
  private final Map<Integer, FileImage> images = new HashMap<>();
  private final Set<RecordingChannel> mapped = new LinkedHashSet<>();
  private int nextFile;

  public RecordingFileOps(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** Everything logged so far, in order. */
  public synchronized List<FileOp> log() {
    return List.copyOf(log);
  }

  /** Logs a workload event at this point (after logging what mappings changed). */
  public synchronized void note(Object event) {
    observe();
    log.add(new FileOp.Note(event));
  }

  /** Logs what changed in the mapped files since the last look. */
  public synchronized void observe() {
    try {
      for (RecordingChannel channel : mapped) {
        diff(channel);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public synchronized FileChannel open(Path path, Set<? extends OpenOption> options)
      throws IOException {
    String name = relative(path);
    if (name == null) {
      return real.open(path, options);
    }
    observe();
    boolean existed = Files.exists(path);
    FileChannel channel = real.open(path, options);
    Integer id = names.get(name);
    if (id == null) {
      id = create(name);
      if (existed) {
        byte[] bytes = Files.readAllBytes(path);
        written(id, 0, bytes);
      }
    } else if (existed && options.contains(StandardOpenOption.TRUNCATE_EXISTING)
        && options.contains(StandardOpenOption.WRITE)) {
      truncated(id, 0);
    }
    return new RecordingChannel(this, id, channel);
  }

  @Override
  public synchronized void move(Path source, Path target) throws IOException {
    String from = relative(source);
    String to = relative(target);
    observe();
    real.move(source, target);
    if (to == null) {
      if (from != null) {
        Integer id = names.remove(from);
        if (id != null) {
          log.add(new FileOp.Delete(id, from));
        }
      }
      return;
    }
    Integer id = from == null ? null : names.remove(from);
    if (id == null) {
      id = create(to);
      written(id, 0, Files.readAllBytes(target));
      return;
    }
    names.put(to, id);
    log.add(new FileOp.Move(id, from, to));
  }

  @Override
  public synchronized boolean deleteIfExists(Path path) throws IOException {
    String name = relative(path);
    observe();
    boolean deleted = real.deleteIfExists(path);
    Integer id = name == null ? null : names.remove(name);
    if (id != null) {
      log.add(new FileOp.Delete(id, name));
    }
    return deleted;
  }

  @Override
  public synchronized void createDirectories(Path dir) throws IOException {
    real.createDirectories(dir);
    String name = relative(dir);
    if (name != null && !name.isEmpty()) {
      log.add(new FileOp.MakeDirectory(name));
    }
  }

  @Override
  public synchronized void syncDirectory(Path dir) throws IOException {
    String name = relative(dir);
    observe();
    real.syncDirectory(dir);
    if (name != null) {
      log.add(new FileOp.SyncDirectory(name));
    }
  }

  // ---- called by RecordingChannel, under this lock ----

  synchronized void written(int id, long position, byte[] bytes) {
    if (bytes.length > 0) {
      images.get(id).write(position, bytes, bytes.length);
      log.add(new FileOp.Write(id, position, bytes));
    }
  }

  synchronized void truncated(int id, long size) {
    FileImage image = images.get(id);
    if (size < image.size()) {
      image.truncate(size);
      log.add(new FileOp.Truncate(id, size));
    }
  }

  synchronized void forced(int id) {
    log.add(new FileOp.Force(id));
  }

  synchronized void mapped(RecordingChannel channel) {
    mapped.add(channel);
  }

  synchronized void closing(RecordingChannel channel) throws IOException {
    if (mapped.remove(channel)) {
      diff(channel);
    }
  }

  private int create(String name) {
    int id = nextFile++;
    names.put(name, id);
    images.put(id, new FileImage());
    log.add(new FileOp.Create(id, name));
    return id;
  }

  /** Logs the runs of bytes where the file now differs from its image. */
  private void diff(RecordingChannel channel) throws IOException {
    FileChannel file = channel.delegate();
    if (!file.isOpen()) {
      return;
    }
    int size = Math.toIntExact(file.size());
    ByteBuffer now = ByteBuffer.allocate(size);
    while (now.hasRemaining() && file.read(now, now.position()) > 0) {
      // keep reading
    }
    FileImage image = images.get(channel.id());
    byte[] bytes = now.array();
    int limit = now.position();
    int i = 0;
    while (i < limit) {
      if (i < image.size() && bytes[i] == image.at(i)) {
        i++;
        continue;
      }
      int start = i;
      int end = i + 1; // exclusive end of the run of changes
      for (int j = end; j < limit && j < end + MERGE_GAP; j++) {
        if (j >= image.size() || bytes[j] != image.at(j)) {
          end = j + 1;
        }
      }
      byte[] run = java.util.Arrays.copyOfRange(bytes, start, end);
      written(channel.id(), start, run);
      i = end;
    }
  }

  private String relative(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    if (!absolute.startsWith(root)) {
      return null;
    }
    return root.relativize(absolute).toString().replace('\\', '/');
  }
}
