package io.qubiq.benchmarks.targetrun;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The OPC UA bench server ({@code io.qubiq.benchmarks.OpcUaBenchServer}, started by class name on this
 * JVM's classpath) as a child JVM, driven over its stdio protocol: {@code READY <endpoint>} once
 * listening, {@code START}, {@code STOP} answered by {@code STOPPED <seq>}, {@code EXIT}. Its stderr
 * goes to a file in the work directory. Stopped by its own process handle. Owned by one thread.
 */
final class BenchServerChild implements AutoCloseable {

    static final String MAIN_CLASS = "io.qubiq.benchmarks.OpcUaBenchServer";

    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final Path log;
    private final String endpoint;

    private BenchServerChild(Process process, Path log) throws InterruptedException {
        this.process = process;
        this.log = log;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    stdout.add(line);
                }
            } catch (IOException e) {
                // the server ended
            }
        }, "bench-server-stdout");
        reader.setDaemon(true);
        reader.start();
        this.endpoint = awaitLine("READY ", Duration.ofMinutes(3)).substring(6).trim();
    }

    static BenchServerChild start(Path workDir, int variables, long intervalMs, String heap)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        Path log = workDir.resolve("opcua-bench-server.log");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-XX:+UseG1GC",
                "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", ""),
                "-cp", System.getProperty("java.class.path"), MAIN_CLASS,
                "--port", String.valueOf(port), "--variables", String.valueOf(variables),
                "--interval-ms", String.valueOf(intervalMs));
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        return new BenchServerChild(process, log);
    }

    String endpoint() {
        return endpoint;
    }

    long pid() {
        return process.pid();
    }

    void startUpdates() throws IOException {
        command("START");
    }

    /** Stops the updates; the last sequence number every variable got. */
    long stopUpdates() throws IOException, InterruptedException {
        command("STOP");
        return Long.parseLong(awaitLine("STOPPED ", Duration.ofMinutes(1)).substring(8).trim());
    }

    private void command(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    private String awaitLine(String prefix, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            String line = stdout.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !process.isAlive()) {
                throw new IllegalStateException("the OPC UA bench server exited with " + process.exitValue()
                        + "; see " + log);
            }
        }
        throw new IllegalStateException("no \"" + prefix + "\" from the OPC UA bench server within " + limit
                + "; see " + log);
    }

    /** EXIT, then SIGKILL to this process if it has not ended within 15 s. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        try {
            command("EXIT");
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
