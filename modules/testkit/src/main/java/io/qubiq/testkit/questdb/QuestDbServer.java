package io.qubiq.testkit.questdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real QuestDB server for tests, run as a child JVM from the {@code org.questdb:questdb} Maven jar
 * ({@code java -p questdb.jar -m io.questdb/io.questdb.ServerMain -d DIR}). It listens on free ports
 * bound to 127.0.0.1 (HTTP, minimal HTTP, PG wire, ILP/TCP), with UDP and telemetry off, settings
 * passed as {@code QDB_*} environment overrides. Its log goes to {@code questdb.log} in its
 * directory (QuestDB otherwise writes to file descriptor 1, which corrupts Surefire's channel) and
 * its stdout/stderr to {@code stdout.txt}. The JVM heap and QuestDB's native RAM are capped.
 *
 * <p>{@link #stop()} sends SIGTERM, {@link #kill()} SIGKILL, {@link #suspend()} / {@link #resume()}
 * SIGSTOP / SIGCONT, always to the one process this object started. {@link #restart()} starts again
 * on the same directory and ports, so the data survives and clients need no new address.
 *
 * <p>Threading: not thread-safe; owned by the test (class) that started it. {@link #exec} may be
 * called from any thread.
 */
public final class QuestDbServer implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** A small heap, and the quick-start JIT and GC: a test server lives seconds, not days. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private final Path dir;
    private final Ports ports;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;

    private QuestDbServer(Path dir, Ports ports) {
        this.dir = dir;
        this.ports = ports;
    }

    /** The four listening ports; chosen once, reused across restarts. */
    private record Ports(int http, int httpMin, int pg, int ilpTcp) {
    }

    /**
     * Starts QuestDB with {@code dir} as its root (created if missing) and waits until it answers
     * {@code /ping}.
     *
     * @throws IllegalStateException when it does not become ready within a minute (its log tail is
     *     in the message)
     */
    public static QuestDbServer start(Path dir) {
        try {
            Files.createDirectories(dir.resolve("conf"));
            List<Integer> free = FreePorts.take(4);
            QuestDbServer server = new QuestDbServer(dir, new Ports(free.get(0), free.get(1), free.get(2), free.get(3)));
            server.writeLogConfig();
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare QuestDB directory " + dir, e);
        }
    }

    /** The HTTP port: ILP over HTTP, {@code /exec}, {@code /ping}. */
    public int httpPort() {
        return ports.http();
    }

    /** {@code 127.0.0.1:<http port>}, the address an ILP/HTTP sender is configured with. */
    public String ilpAddress() {
        return "127.0.0.1:" + ports.http();
    }

    public int pgPort() {
        return ports.pg();
    }

    public int ilpTcpPort() {
        return ports.ilpTcp();
    }

    public Path dir() {
        return dir;
    }

    public Path logFile() {
        return dir.resolve("questdb.log");
    }

    /** The child's process id while it runs. */
    public long pid() {
        return requireProcess().pid();
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Graceful stop: SIGTERM, then waits for the process to exit (SIGKILL after 30 s). */
    public void stop() {
        if (process == null) {
            return;
        }
        resumeQuietly();
        process.destroy();
        awaitExit();
    }

    /** Hard stop: SIGKILL, as a crash or power loss would end it; waits for the exit. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        awaitExit();
    }

    /** Stops (if running) and starts again on the same directory and ports; waits until ready. */
    public void restart() {
        stop();
        launch();
    }

    /** Freezes the process (SIGSTOP): connections are accepted by the kernel but never answered. */
    public void suspend() {
        signal("STOP");
    }

    /** Lets a {@link #suspend() suspended} process run again (SIGCONT). */
    public void resume() {
        signal("CONT");
    }

    /**
     * Runs one SQL statement over HTTP {@code /exec} and returns its columns and rows.
     *
     * @throws QuestDbQueryException when QuestDB answers with an error (such as an unknown table)
     * @throws UncheckedIOException when the server cannot be reached
     */
    public ExecResult exec(String sql) {
        URI uri = uri("/exec?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            Object json = JsonReader.parse(response.body());
            if (!(json instanceof Map<?, ?> answer)) {
                throw new QuestDbQueryException(sql, "unexpected answer: " + response.body());
            }
            if (answer.containsKey("error") || response.statusCode() != 200) {
                throw new QuestDbQueryException(sql, String.valueOf(answer.get("error")));
            }
            return ExecResult.of(answer);
        } catch (IOException e) {
            throw new UncheckedIOException("QuestDB /exec failed for: " + sql, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while querying QuestDB", e);
        }
    }

    /** Stops the server; the directory is left for inspection (the caller owns it). */
    @Override
    public void close() {
        stop();
    }

    private void launch() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-p", questDbJar().toString(), "-m", "io.questdb/io.questdb.ServerMain",
                "-d", dir.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.txt").toFile()));
        Map<String, String> env = builder.environment();
        env.put("QDB_HTTP_BIND_TO", "127.0.0.1:" + ports.http());
        env.put("QDB_HTTP_MIN_NET_BIND_TO", "127.0.0.1:" + ports.httpMin());
        env.put("QDB_PG_NET_BIND_TO", "127.0.0.1:" + ports.pg());
        env.put("QDB_LINE_TCP_NET_BIND_TO", "127.0.0.1:" + ports.ilpTcp());
        env.put("QDB_LINE_UDP_ENABLED", "false");
        env.put("QDB_TELEMETRY_ENABLED", "false");
        env.put("QDB_RAM_USAGE_LIMIT_PERCENT", "25");
        env.put("QDB_SHARED_WORKER_COUNT", "2");
        env.put("QDB_DEV_MODE_ENABLED", "true");
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start QuestDB with " + java, e);
        }
        awaitReady();
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        HttpRequest ping = HttpRequest.newBuilder(uri("/ping")).timeout(Duration.ofSeconds(2)).GET().build();
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() / 100 == 2) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for QuestDB", e);
            }
            if (waitForExit(Duration.ofMillis(100))) {
                throw new IllegalStateException("QuestDB exited with " + process.exitValue() + " while starting; "
                        + logTail());
            }
        }
        throw new IllegalStateException("QuestDB did not answer /ping within " + READY_TIMEOUT + "; " + logTail());
    }

    private void awaitExit() {
        if (!waitForExit(STOP_TIMEOUT)) {
            process.destroyForcibly();
            waitForExit(STOP_TIMEOUT);
        }
    }

    private boolean waitForExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for QuestDB to exit", e);
        }
    }

    private void signal(String name) {
        Process signaller;
        try {
            signaller = new ProcessBuilder("kill", "-" + name, Long.toString(pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not send SIG" + name + " to QuestDB", e);
        }
        try {
            if (!signaller.waitFor(10, TimeUnit.SECONDS) || signaller.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid() + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling QuestDB", e);
        }
    }

    private void resumeQuietly() {
        if (process.isAlive()) {
            try {
                signal("CONT");
            } catch (RuntimeException ignored) {
                // SIGTERM follows; SIGKILL after the timeout in any case
            }
        }
    }

    private Process requireProcess() {
        if (process == null) {
            throw new IllegalStateException("QuestDB was never started");
        }
        return process;
    }

    private void writeLogConfig() throws IOException {
        Files.writeString(dir.resolve("conf/log.conf"), String.join("\n",
                "# Written by QuestDbServer: log to a file, never to stdout (Surefire reads the test JVM's stdout).",
                "writers=file",
                "w.file.class=io.questdb.log.LogFileWriter",
                "w.file.location=" + logFile().toAbsolutePath(),
                "w.file.level=INFO,ERROR,CRITICAL,ADVISORY",
                ""));
    }

    private String logTail() {
        try {
            List<String> lines = Files.exists(logFile()) ? Files.readAllLines(logFile()) : new ArrayList<>();
            return "log " + logFile() + " ends with:\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "log " + logFile() + " unreadable: " + e.getMessage();
        }
    }

    private URI uri(String pathAndQuery) {
        try {
            return new URI("http://127.0.0.1:" + ports.http() + pathAndQuery);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(pathAndQuery, e);
        }
    }

    private static Path questDbJar() {
        try {
            return Path.of(io.questdb.ServerMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the QuestDB jar", e);
        }
    }
}
