package io.qubiq.buffer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A child JVM running a main class of the test classpath, its stdout collected line by line. */
final class ChildJvm implements AutoCloseable {
  final Process process;
  final List<String> lines = new CopyOnWriteArrayList<>();
  private final Thread pump;

  private ChildJvm(Process process) {
    this.process = process;
    this.pump = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        // The child died mid-line; what was read stays.
      }
    }, "child-stdout");
    pump.setDaemon(true);
    pump.start();
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

  /** SIGKILL on Linux; waits for the death and for the last line already written. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
    pump.join(10_000);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
