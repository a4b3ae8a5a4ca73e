package io.qubiq.fileops.smalldisk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a few MiB mounted on a test's directory, so that a store meets a really full file
 * system: the kernel's ENOSPC on {@code write}, and the fault on a page of a mapping it cannot
 * back.
 *
 * <p><b>Proof that it is ours.</b> {@link #mount} accepts the mount only when {@code mount}
 * exited 0, the directory is listed as a mount point in {@code /proc/self/mountinfo}, its type is
 * tmpfs and its size is exactly the size asked for. Where any of that fails (not root, no
 * CAP_SYS_ADMIN, a container) the result is not mounted and says why, for the test to skip with.
 * A test must never fill a file system it did not mount: where the test's directory already sits
 * on a large tmpfs, a weaker check ("the type is tmpfs") would pass and fill that one instead.
 *
 * <p><b>Bounded fill.</b> {@link #fill} writes until the kernel refuses and fails if it wrote more
 * than the mount's size, so even a wrong mount cannot swallow a real disk.
 *
 * <p>Only the mount this object made is unmounted, by {@link #close}.
 */
public final class SmallDisk implements AutoCloseable {
  private static final int CHUNK = 16 * 1024;

  private final Path dir;
  private final long bytes;
  private final String whyNot;

  private SmallDisk(Path dir, long bytes, String whyNot) {
    this.dir = dir;
    this.bytes = bytes;
    this.whyNot = whyNot;
  }

  /**
   * Mounts a tmpfs of {@code mebibytes} MiB on {@code dir} (created if missing). Never throws for
   * a mount that is not permitted: the result then says {@link #whyNot()}.
   */
  public static SmallDisk mount(Path dir, int mebibytes) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    long bytes = mebibytes * 1024L * 1024L;
    String uid = run("id", "-u").output().trim();
    if (!"0".equals(uid)) {
      return new SmallDisk(dir, bytes, "not running as root (uid " + uid + ")");
    }
    Result mounted = run("mount", "-t", "tmpfs", "-o", "size=" + mebibytes + "m", "tmpfs", dir.toString());
    if (mounted.exit() != 0) {
      return new SmallDisk(dir, bytes, "mount -t tmpfs exited " + mounted.exit() + ": " + mounted.output().trim());
    }
    SmallDisk disk = new SmallDisk(dir, bytes, "");
    String wrong = disk.notOurs();
    if (!wrong.isEmpty()) {
      run("umount", dir.toString());
      return new SmallDisk(dir, bytes, wrong);
    }
    return disk;
  }

  /** Empty when this is a verified mount of the asked size; otherwise why it is not. */
  private String notOurs() throws IOException {
    String point = dir.toRealPath().toString();
    boolean listed = Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8).stream()
        .map(line -> List.of(line.split(" ")))
        .anyMatch(fields -> fields.size() > 4 && fields.get(4).equals(point));
    if (!listed) {
      return dir + " is not a mount point after mount (not in /proc/self/mountinfo)";
    }
    String type = Files.getFileStore(dir).type();
    long total = Files.getFileStore(dir).getTotalSpace();
    if (!"tmpfs".equals(type) || total != bytes) {
      return dir + " is a " + type + " of " + total + " bytes, not a tmpfs of " + bytes;
    }
    return "";
  }

  /** True when the small tmpfs is mounted; otherwise {@link #whyNot()} says why not. */
  public boolean mounted() {
    return whyNot.isEmpty();
  }

  /** Why the mount was not made or not accepted; empty when {@link #mounted()}. */
  public String whyNot() {
    return whyNot;
  }

  /** The mounted directory. */
  public Path path() {
    return dir;
  }

  /**
   * Writes {@code filler} (a new file on this disk) until the kernel answers "No space left on
   * device", and returns the bytes written.
   *
   * @throws IllegalStateException not mounted, or more than the disk's size was written
   * @throws IOException any failure but the full disk
   */
  public long fill(Path filler) throws IOException {
    if (!mounted()) {
      throw new IllegalStateException("not mounted: " + whyNot);
    }
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
    long written = 0;
    try (FileChannel out = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (true) {
        chunk.clear();
        while (chunk.hasRemaining()) {
          written += out.write(chunk);
        }
        if (written > bytes) {
          throw new IllegalStateException("wrote " + written + " bytes into " + filler
              + " on a disk of " + bytes + ": this is not the small disk");
        }
      }
    } catch (IOException e) {
      if (e.getMessage() == null || !e.getMessage().contains("No space left on device")) {
        throw e;
      }
      return written;
    }
  }

  /** Free bytes on the disk now. */
  public long usable() throws IOException {
    return Files.getFileStore(dir).getUsableSpace();
  }

  /** Unmounts what {@link #mount} mounted; does nothing when it was not mounted. */
  @Override
  public void close() throws IOException, InterruptedException {
    if (mounted()) {
      Result out = run("umount", dir.toString());
      if (out.exit() != 0) {
        throw new IOException("umount " + dir + " exited " + out.exit() + ": " + out.output().trim());
      }
    }
  }

  private record Result(int exit, String output) {}

  private static Result run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out: " + String.join(" ", command));
    }
    return new Result(p.exitValue(), out);
  }
}
