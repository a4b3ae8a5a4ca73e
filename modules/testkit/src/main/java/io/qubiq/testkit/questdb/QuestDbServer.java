package io.qubiq.testkit.questdb;

import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.Json;
import io.qubiq.questdb.exec.SqlResult;
import io.qubiq.questdb.process.LoopbackPorts;
import io.qubiq.questdb.process.QuestDbLaunch;
import io.qubiq.questdb.process.QuestDbProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real QuestDB server for tests, run as a child JVM from the {@code org.questdb:questdb} Maven jar
 * ({@code java -p questdb.jar -m io.questdb/io.questdb.ServerMain -d DIR}). It listens on free ports
 * bound to 127.0.0.1 (HTTP, minimal HTTP, PG wire, ILP/TCP), with UDP and telemetry off, settings
 * passed as {@code QDB_*} environment overrides. Its log goes to {@code questdb.log} in its
 * directory (QuestDB otherwise writes to file descriptor 1, which corrupts Surefire's channel) and
 * its stdout/stderr to {@code stdout.txt}. The JVM heap and QuestDB's native RAM are capped. It is
 * started, awaited and stopped with the launcher the gateway's embedded QuestDB uses ({@link
 * QuestDbLaunch}, {@link QuestDbProcess}) and read with the historian's {@code /exec} client.
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
    private final QuestDbLaunch launch;
    private final ExecClient exec;
    private Process process;

    private QuestDbServer(Path dir, Ports ports) {
        this.dir = dir;
        this.ports = ports;
        Map<String, String> settings = QuestDbLaunch.loopback(ports.http(), ports.pg());
        settings.put("QDB_HTTP_MIN_NET_BIND_TO", "127.0.0.1:" + ports.httpMin());
        settings.put("QDB_LINE_TCP_NET_BIND_TO", "127.0.0.1:" + ports.ilpTcp());
        settings.put("QDB_SHARED_WORKER_COUNT", "2");
        settings.put("QDB_DEV_MODE_ENABLED", "true");
        this.launch = new QuestDbLaunch(questDbJar(), dir, JVM_OPTIONS, settings, dir.resolve("stdout.txt"), false);
        this.exec = new ExecClient(URI.create("http://127.0.0.1:" + ports.http()), Duration.ofSeconds(2),
                Duration.ofSeconds(10), Optional.empty());
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
            List<Integer> free = LoopbackPorts.take(4);
            QuestDbServer server = new QuestDbServer(dir, new Ports(free.get(0), free.get(1), free.get(2), free.get(3)));
            server.launch.prepare();
            server.startProcess();
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
        return launch.logFile();
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
        startProcess();
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
        return exec(exec, sql);
    }

    /**
     * As {@link #exec(String)}, waiting up to {@code timeout} for the answer instead of 10 s: for a query over
     * tens of millions of rows (a harness's verdict), not for tests, where a slow answer is a fault to see.
     */
    public ExecResult exec(String sql, Duration timeout) {
        return exec(new ExecClient(URI.create("http://127.0.0.1:" + ports.http()), Duration.ofSeconds(2), timeout,
                Optional.empty()), sql);
    }

    private static ExecResult exec(ExecClient client, String sql) {
        try {
            HttpResponse<String> response = client.send(sql);
            Object json = Json.parse(response.body());
            if (!(json instanceof Map<?, ?> answer)) {
                throw new QuestDbQueryException(sql, "unexpected answer: " + response.body());
            }
            if (answer.containsKey("error") || response.statusCode() != 200) {
                throw new QuestDbQueryException(sql, String.valueOf(answer.get("error")));
            }
            return ExecResult.of(SqlResult.of(answer));
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

    private void startProcess() {
        try {
            process = launch.processBuilder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start QuestDB with " + launch.command().get(0), e);
        }
        awaitReady();
    }

    private void awaitReady() {
        QuestDbProcess.Readiness readiness;
        try {
            readiness = QuestDbProcess.awaitReady(process, ports.http(), READY_TIMEOUT, Duration.ofMillis(100));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for QuestDB", e);
        }
        switch (readiness) {
            case READY -> { }
            case EXITED -> throw new IllegalStateException("QuestDB exited with " + process.exitValue()
                    + " while starting; " + logTail());
            case TIMED_OUT -> throw new IllegalStateException("QuestDB did not answer /ping within " + READY_TIMEOUT
                    + "; " + logTail());
        }
    }

    /** After SIGTERM or SIGKILL: waits for the exit, and sends SIGKILL when SIGTERM was not enough. */
    private void awaitExit() {
        try {
            if (!QuestDbProcess.awaitExit(process.toHandle(), STOP_TIMEOUT)) {
                QuestDbProcess.kill(process.toHandle(), STOP_TIMEOUT);
            }
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

    private String logTail() {
        try {
            List<String> lines = Files.exists(logFile()) ? Files.readAllLines(logFile()) : new ArrayList<>();
            return "log " + logFile() + " ends with:\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "log " + logFile() + " unreadable: " + e.getMessage();
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
