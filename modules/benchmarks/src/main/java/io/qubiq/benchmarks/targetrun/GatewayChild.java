package io.qubiq.benchmarks.targetrun;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One incarnation of the packaged gateway, started as an operator starts it: {@code qubiq run --config
 * FILE --data-dir DIR --http-port N} (the launcher's memory defaults; it {@code exec}s java, so the PID
 * is the JVM's), with {@code QUBIQ_JAR} naming the built jar. Its stdout and stderr go to one file per
 * incarnation. {@link #kill()} sends SIGKILL and {@link #close()} SIGTERM to this one process. Owned by
 * one thread.
 */
final class GatewayChild implements AutoCloseable {

    private final Process process;
    private final Path output;
    private final int httpPort;
    private final long startedNanos;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private GatewayChild(Process process, Path output, int httpPort, long startedNanos) {
        this.process = process;
        this.output = output;
        this.httpPort = httpPort;
        this.startedNanos = startedNanos;
    }

    static GatewayChild start(TargetOptions options, Path config, Path dataDir, int httpPort, int incarnation)
            throws IOException {
        Path output = options.workDir.resolve("gateway-" + incarnation + ".out");
        List<String> command = List.of(options.repoRoot.resolve("qubiq").toAbsolutePath().toString(), "run",
                "--config", config.toAbsolutePath().toString(), "--data-dir", dataDir.toAbsolutePath().toString(),
                "--http-port", String.valueOf(httpPort));
        ProcessBuilder builder = new ProcessBuilder(command).directory(options.workDir.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.environment().put("QUBIQ_JAR", options.jar.toAbsolutePath().toString());
        long started = System.nanoTime();
        return new GatewayChild(builder.start(), output, httpPort, started);
    }

    /** Polls {@code /health} until it answers 200 READY; the time from start to then. */
    Duration awaitReady(Duration limit) throws InterruptedException {
        long deadline = startedNanos + limit.toNanos();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/health"))
                .timeout(Duration.ofSeconds(2)).build();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the gateway exited with " + process.exitValue() + "; see " + output);
            }
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() == 200 && response.body().contains("\"status\":\"READY\"")) {
                    return Duration.ofNanos(System.nanoTime() - startedNanos);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the gateway was not READY within " + limit + " (last /health: " + last
                + "); see " + output);
    }

    long pid() {
        return process.pid();
    }

    Path output() {
        return output;
    }

    /** SIGKILL, as a crash would end it; waits for the exit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM (an orderly stop), SIGKILL after 60 s. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
