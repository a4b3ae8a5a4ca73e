package io.qubiq.app.questdb;

import io.qubiq.core.lifecycle.Component;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QuestDB started by the gateway as a child JVM from the QuestDB jar that ships with it ({@code
 * java -p questdb.jar -m io.questdb/io.questdb.ServerMain -d <dir>}), listening on 127.0.0.1 only.
 * Its data, configuration and log live in its own folder of the data directory; its own log goes
 * to {@code questdb.log} there (QuestDB writes to file descriptor 1 otherwise), its standard output
 * to {@code stdout.log}.
 *
 * <p>{@link #start} returns when QuestDB answers {@code /ping}. {@link #stop} sends SIGTERM and
 * waits, then kills. If the process dies while the gateway runs, the historian's channel buffers
 * (QuestDB is DOWN for the connection monitor) and the log says so; known gap: it is not restarted
 * automatically.
 *
 * <p>The child's PID is kept in {@code questdb.pid}. When the gateway itself was killed ({@code kill
 * -9}) its QuestDB keeps running; the next start finds that PID, checks that the process is the
 * QuestDB this gateway started on this folder, and stops it before starting a fresh one.
 *
 * <p>Threading: started and stopped by the lifecycle thread.
 */
public final class EmbeddedQuestDb implements Component {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedQuestDb.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    /** Stays inside the default shutdown grace period of 10 s. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(6);

    private final Path dir;
    private final Path jar;
    private final int httpPort;
    private final int pgPort;
    private final int maxHeapMb;
    private Process process;

    public EmbeddedQuestDb(Path dir, Path jar, int httpPort, int pgPort, int maxHeapMb) {
        this.dir = dir;
        this.jar = jar;
        this.httpPort = httpPort;
        this.pgPort = pgPort;
        this.maxHeapMb = maxHeapMb;
    }

    @Override
    public String name() {
        return "questdb";
    }

    public String httpAddress() {
        return "127.0.0.1:" + httpPort;
    }

    @Override
    public void start() throws IOException, InterruptedException {
        if (!Files.isRegularFile(jar)) {
            throw new IOException("the QuestDB jar " + jar + " is missing; rebuild with ./qubiq build, or set"
                    + " questdb.embedded: false and point questdb.client.address at a running QuestDB");
        }
        Files.createDirectories(dir.resolve("conf"));
        Files.writeString(dir.resolve("conf/log.conf"), String.join("\n",
                "# Written by the Qubiq gateway: QuestDB logs to this file, not to standard output.",
                "writers=file",
                "w.file.class=io.questdb.log.LogFileWriter",
                "w.file.location=" + dir.resolve("questdb.log").toAbsolutePath(),
                "w.file.level=INFO,ERROR,CRITICAL,ADVISORY",
                ""));
        List<String> command = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            // its own session: a Ctrl-C or SIGTERM sent to the gateway's process group reaches the gateway
            // only, which then stops QuestDB in order, after the historian's last write
            command.add(SETSID.toString());
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeapMb + "m", "-p", jar.toString(), "-m", "io.questdb/io.questdb.ServerMain",
                "-d", dir.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile()));
        Map<String, String> env = builder.environment();
        env.put("QDB_HTTP_BIND_TO", "127.0.0.1:" + httpPort);
        env.put("QDB_PG_NET_BIND_TO", "127.0.0.1:" + pgPort);
        env.put("QDB_HTTP_MIN_ENABLED", "false");
        env.put("QDB_LINE_TCP_ENABLED", "false");
        env.put("QDB_LINE_UDP_ENABLED", "false");
        env.put("QDB_TELEMETRY_ENABLED", "false");
        env.put("QDB_RAM_USAGE_LIMIT_PERCENT", "25");
        stopLeftoverFromCrash();
        process = builder.start();
        Files.writeString(pidFile(), process.pid() + "\n");
        log.info("Embedded QuestDB starting (PID {}) in {}, HTTP on 127.0.0.1:{}", process.pid(), dir, httpPort);
        awaitReady();
        process.onExit().thenAccept(exited -> {
            if (exited == process) {
                log.error("Embedded QuestDB (PID {}) exited with code {} while the gateway runs; history is buffered"
                        + " until it is back. See {}", exited.pid(), exited.exitValue(), dir.resolve("questdb.log"));
            }
        });
    }

    private void awaitReady() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest ping = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/ping"))
                .timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("embedded QuestDB exited with code " + process.exitValue() + " during start;"
                        + " see " + dir.resolve("questdb.log") + " and " + dir.resolve("stdout.log"));
            }
            try {
                if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() / 100 == 2) {
                    log.info("Embedded QuestDB ready on 127.0.0.1:{}", httpPort);
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200); // polling a child process's port: nothing to wait on but time
        }
        stop();
        throw new IOException("embedded QuestDB did not answer on 127.0.0.1:" + httpPort + " within "
                + READY_TIMEOUT.toSeconds() + " s; see " + dir.resolve("questdb.log"));
    }

    private Path pidFile() {
        return dir.resolve("questdb.pid");
    }

    /** Stops a QuestDB this gateway started on the same folder before it was killed, identified by PID. */
    private void stopLeftoverFromCrash() throws IOException, InterruptedException {
        if (!Files.exists(pidFile())) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile()).trim());
        } catch (NumberFormatException e) {
            Files.delete(pidFile());
            return;
        }
        var leftover = ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(handle -> handle.info()
                .arguments().map(args -> String.join(" ", args)).filter(line -> line.contains("io.questdb.ServerMain")
                        && line.contains(dir.toAbsolutePath().toString())).isPresent());
        if (leftover.isPresent()) {
            log.warn("Stopping the embedded QuestDB (PID {}) left running by a gateway that did not stop cleanly", pid);
            leftover.get().destroy();
            if (!leftover.get().onExit().completeOnTimeout(null, 15, TimeUnit.SECONDS).thenApply(h -> h != null)
                    .join()) {
                leftover.get().destroyForcibly();
            }
        }
        Files.deleteIfExists(pidFile());
    }

    @Override
    public void stop() throws InterruptedException {
        Process current = process;
        process = null;
        if (current == null || !current.isAlive()) {
            return;
        }
        current.destroy();
        if (!current.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            log.warn("Embedded QuestDB (PID {}) did not stop within {} s after SIGTERM; killing it", current.pid(),
                    STOP_TIMEOUT.toSeconds());
            current.destroyForcibly();
            current.waitFor(5, TimeUnit.SECONDS);
        }
        try {
            Files.deleteIfExists(pidFile());
        } catch (IOException e) {
            log.debug("could not delete {}", pidFile(), e);
        }
    }

    /** The QuestDB jar next to the application: {@code lib/questdb-*.jar} beside the gateway jar (or classes). */
    public static Path locateJar() {
        String override = System.getProperty("qubiq.questdb.jar");
        if (override != null) {
            return Path.of(override);
        }
        try {
            Path code = Path.of(EmbeddedQuestDb.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path lib = code.getParent().resolve("lib");
            if (Files.isDirectory(lib)) {
                try (var files = Files.list(lib)) {
                    var jar = files.filter(f -> f.getFileName().toString().matches("questdb-[0-9].*\\.jar")).findFirst();
                    if (jar.isPresent()) {
                        return jar.get();
                    }
                }
            }
            return lib.resolve("questdb.jar");
        } catch (Exception e) {
            return Path.of("lib", "questdb.jar");
        }
    }
}
