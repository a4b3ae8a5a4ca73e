package io.qubiq.buffer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A child JVM running a main class of the test classpath, its stdout collected line by line on a
 * dedicated thread.
 *
 * <p>{@link #kill()} sends SIGKILL through the {@link ProcessHandle}, not {@link
 * Process#destroyForcibly()}: the latter also closes the parent's end of the stdout pipe, so
 * lines the child wrote but the pump had not read yet were lost, and a crash test then believed
 * fewer appends had returned than really had. After the kill the pump reads the pipe to its end.
 * A last line without its newline (the child died while writing it) is not kept.
 */
final class ChildJvm implements AutoCloseable {
  final Process process;
  final List<String> lines = new CopyOnWriteArrayList<>();
  private final Thread pump;

  private ChildJvm(Process process) {
    this.process = process;
    this.pump = new Thread(this::pumpLines, "child-stdout");
    pump.setDaemon(true);
    pump.start();
  }

  private void pumpLines() {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    byte[] chunk = new byte[8192];
    try (InputStream in = process.getInputStream()) {
      for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
        for (int i = 0; i < n; i++) {
          if (chunk[i] == '\n') {
            lines.add(line.toString(StandardCharsets.UTF_8));
            line.reset();
          } else {
            line.write(chunk[i]);
          }
        }
      }
    } catch (IOException e) {
      // The pipe broke; the complete lines read so far stay.
    }
  }

  static ChildJvm start(Class<?> main, Path stderr, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command)
        .redirectError(stderr.toFile())
        .start();
    return new ChildJvm(process);
  }

  /**
   * SIGKILL on Linux; waits for the death and then for every line the child wrote before it.
   *
   * @throws IllegalStateException the pipe did not reach its end within 30 s (a grandchild
   *     holding it open)
   */
  void kill() throws InterruptedException {
    process.toHandle().destroyForcibly();
    process.waitFor();
    pump.join(30_000);
    if (pump.isAlive()) {
      throw new IllegalStateException("the child's stdout did not reach its end after the kill");
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
