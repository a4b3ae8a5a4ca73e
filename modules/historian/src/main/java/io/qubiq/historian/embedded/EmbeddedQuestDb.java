package io.qubiq.historian.embedded;

import io.qubiq.core.lifecycle.Component;
import io.qubiq.questdb.process.QuestDbLaunch;
import io.qubiq.questdb.process.QuestDbProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * QuestDB started by the gateway as a child JVM from the QuestDB jar that ships with it ({@code
 * java -p questdb.jar -m io.questdb/io.questdb.ServerMain -d <dir>}), listening on 127.0.0.1 only.
 * Its data, configuration and log live in its own folder of the data directory; its own log goes
 * to {@code questdb.log} there (QuestDB writes to file descriptor 1 otherwise), its standard output
 * to {@code stdout.log}. The command line, the readiness wait and the stop by PID are the shared
 * launcher's ({@link QuestDbLaunch}, {@link QuestDbProcess}), which the testkit's QuestDB uses too.
 *
 * <p><b>Access.</b> HTTP and PG wire need the user {@value #USER} and the password given at construction (the
 * gateway's is generated per installation and kept in its secrets store): QuestDB's {@code http.user},
 * {@code http.password}, {@code pg.user} and {@code pg.password}, passed as {@code QDB_*} environment
 * settings; the read-only PG user is off. ILP over TCP and the minimal HTTP server are off.
 *
 * <p>{@link #start} returns when QuestDB answers {@code /ping}. {@link #stop} sends SIGTERM and
 * waits, then kills. If the process dies while the gateway runs, the historian's channel buffers
 * (QuestDB is DOWN for the connection monitor), the log says so, and QuestDB is started again on
 * the same folder and ports after {@link #RESTART_DELAYS_S} seconds: 1 s after a QuestDB that ran
 * for at least {@link #STABLE} dies; each start that fails (the process exits or does not answer in
 * time) and each death within {@code STABLE} of a start waits for the next delay, 2, 5, 10, 30,
 * then every 60 s, so a QuestDB in a crash loop is retried without spinning.
 *
 * <p>The child's PID is kept in {@code questdb.pid}. When the gateway itself was killed ({@code kill
 * -9}) its QuestDB keeps running; the next start finds that PID, checks that the process is the
 * QuestDB this gateway started on this folder, and stops it before starting a fresh one.
 *
 * <p>Threading: started and stopped by the lifecycle thread; restarts run on the daemon thread
 * {@code questdb-restart}. Starting a process and replacing {@link #process} hold this object's
 * lock; {@link #stop} clears {@link #running} first and interrupts a restart in progress, so it
 * never waits for one to time out.
 */
public final class EmbeddedQuestDb implements Component {

    /** The user name of the embedded QuestDB's HTTP and PG wire endpoints. */
    public static final String USER = "admin";
    private static final Logger log = LoggerFactory.getLogger(EmbeddedQuestDb.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    /** Stays inside the default shutdown grace period of 10 s. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(6);
    /** A QuestDB left running by a killed gateway gets this long after SIGTERM before SIGKILL. */
    private static final Duration LEFTOVER_STOP_TIMEOUT = Duration.ofSeconds(15);
    /** Seconds before each attempt to start QuestDB again after it died; the last one repeats. */
    static final long[] RESTART_DELAYS_S = {1, 2, 5, 10, 30, 60};
    /** A QuestDB that ran this long before it died is restarted after the first delay again. */
    static final Duration STABLE = Duration.ofMinutes(1);

    private final Path dir;
    private final Path jar;
    private final int httpPort;
    private final int pgPort;
    private final int maxHeapMb;
    private final String password;
    /** The QuestDB child, replaced by a restart; guarded by this. */
    private Process process;
    /** Between a successful start and stop: while set, a QuestDB that dies is started again. */
    private volatile boolean running;
    /** Whether a restart is scheduled or in progress; guarded by this. */
    private boolean restarting;
    /** Failed starts and early deaths in a row; guarded by this. */
    private int failedRestarts;
    /** Restarts that succeeded (the new child answered); guarded by this. */
    private long restarts;
    /** When the current child answered its first ping ({@link System#nanoTime}); guarded by this. */
    private long readyAtNanos;
    private ScheduledExecutorService restarter;

    /**
     * @param password the password of the {@value #USER} user on HTTP ({@code /exec}, ILP over HTTP, QuestDB's
     *                 web console) and PG wire; the gateway's is generated per installation
     */
    public EmbeddedQuestDb(Path dir, Path jar, int httpPort, int pgPort, int maxHeapMb, String password) {
        if (password.isBlank()) {
            throw new IllegalArgumentException("the embedded QuestDB needs a password");
        }
        this.dir = dir;
        this.jar = jar;
        this.httpPort = httpPort;
        this.pgPort = pgPort;
        this.maxHeapMb = maxHeapMb;
        this.password = password;
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
        Map<String, String> settings = QuestDbLaunch.loopback(httpPort, pgPort);
        settings.put("QDB_HTTP_MIN_ENABLED", "false");
        settings.put("QDB_LINE_TCP_ENABLED", "false");
        // no anonymous access, not even from this machine: a web page could reach 127.0.0.1 by DNS rebinding,
        // and every local user could. The password is passed in the environment, which only this user can read.
        settings.put("QDB_HTTP_USER", USER);
        settings.put("QDB_HTTP_PASSWORD", password);
        settings.put("QDB_PG_USER", USER);
        settings.put("QDB_PG_PASSWORD", password);
        settings.put("QDB_PG_READONLY_USER_ENABLED", "false");
        // its own session: a Ctrl-C or SIGTERM sent to the gateway's process group reaches the gateway
        // only, which then stops QuestDB in order, after the historian's last write
        QuestDbLaunch launch = new QuestDbLaunch(jar, dir, List.of("-Xmx" + maxHeapMb + "m"), settings,
                dir.resolve("stdout.log"), true);
        launch.prepare();
        ProcessBuilder builder = launch.processBuilder();
        stopLeftoverFromCrash();
        restarter = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "questdb-restart");
            thread.setDaemon(true);
            return thread;
        });
        running = true; // before the child can die: a death right after it answered is restarted too
        try {
            synchronized (this) {
                launch(builder);
            }
        } catch (IOException | InterruptedException e) {
            running = false;
            restarter.shutdownNow();
            Files.deleteIfExists(pidFile());
            throw e;
        }
    }

    /** Starts the child and waits until it answers; the caller holds the lock. */
    private void launch(ProcessBuilder builder) throws IOException, InterruptedException {
        Process started = builder.start();
        process = started;
        Files.writeString(pidFile(), started.pid() + "\n");
        log.info("Embedded QuestDB starting (PID {}) in {}, HTTP on 127.0.0.1:{}", started.pid(), dir, httpPort);
        try {
            awaitReady(started);
        } catch (IOException | InterruptedException e) {
            destroy(started);
            throw e;
        }
        readyAtNanos = System.nanoTime();
        started.onExit().thenAccept(exited -> died(exited, builder));
    }

    /** Called when a child exits: unless the gateway is stopping, schedules starting it again. */
    private synchronized void died(Process exited, ProcessBuilder builder) {
        if (!running || exited != process || restarting) {
            return;
        }
        failedRestarts = System.nanoTime() - readyAtNanos >= STABLE.toNanos() ? 0 : failedRestarts + 1;
        long delay = nextDelay();
        log.error("Embedded QuestDB (PID {}) exited with code {} while the gateway runs; history is buffered until"
                + " it is back. Starting it again in {} s. See {}", exited.pid(), exited.exitValue(), delay,
                dir.resolve("questdb.log"));
        schedule(builder, delay);
    }

    private void schedule(ProcessBuilder builder, long delaySeconds) {
        restarting = true;
        try {
            restarter.schedule(() -> restart(builder), delaySeconds, TimeUnit.SECONDS);
        } catch (RejectedExecutionException stopping) {
            restarting = false;
        }
    }

    /** How many times QuestDB was started again and answered. */
    synchronized long restarts() {
        return restarts;
    }

    private long nextDelay() {
        return RESTART_DELAYS_S[Math.min(failedRestarts, RESTART_DELAYS_S.length - 1)];
    }

    private synchronized void restart(ProcessBuilder builder) {
        if (!running) {
            restarting = false;
            return;
        }
        try {
            launch(builder);
            restarts++;
            restarting = false;
            log.info("Embedded QuestDB is running again (PID {})", process.pid());
        } catch (IOException | RuntimeException | Error e) {
            // anything else escaping this scheduled task would end the restarts for good, silently,
            // with `restarting` left set: history would stay buffered until the gateway restarts
            failedRestarts++;
            long delay = nextDelay();
            log.error("Embedded QuestDB could not be started again ({}); trying again in {} s", e, delay);
            schedule(builder, delay);
        } catch (InterruptedException e) {
            restarting = false; // stop() interrupts a restart in progress
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady(Process started) throws IOException, InterruptedException {
        switch (QuestDbProcess.awaitReady(started, httpPort, READY_TIMEOUT, Duration.ofMillis(200))) {
            case READY -> log.info("Embedded QuestDB ready on 127.0.0.1:{}", httpPort);
            case EXITED -> throw new IOException("embedded QuestDB exited with code " + started.exitValue()
                    + " during start; see " + dir.resolve("questdb.log") + " and " + dir.resolve("stdout.log"));
            case TIMED_OUT -> throw new IOException("embedded QuestDB did not answer on 127.0.0.1:" + httpPort
                    + " within " + READY_TIMEOUT.toSeconds() + " s; see " + dir.resolve("questdb.log"));
        }
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
        var leftover = QuestDbProcess.findServer(pid, dir);
        if (leftover.isPresent()) {
            log.warn("Stopping the embedded QuestDB (PID {}) left running by a gateway that did not stop cleanly", pid);
            if (!QuestDbProcess.terminate(leftover.get(), LEFTOVER_STOP_TIMEOUT)) {
                leftover.get().destroyForcibly();
            }
        }
        Files.deleteIfExists(pidFile());
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        if (restarter != null) {
            restarter.shutdownNow(); // interrupts a restart waiting for QuestDB to answer
            restarter.awaitTermination(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        Process current;
        synchronized (this) {
            current = process;
            process = null;
        }
        if (current == null) {
            return;
        }
        if (current.isAlive()) {
            destroy(current);
        }
        try {
            // also when the child had died already, or a restart stopped here had started one
            Files.deleteIfExists(pidFile());
        } catch (IOException e) {
            log.debug("could not delete {}", pidFile(), e);
        }
    }

    /** SIGTERM, a wait, then SIGKILL. */
    private void destroy(Process current) throws InterruptedException {
        if (!QuestDbProcess.terminate(current.toHandle(), STOP_TIMEOUT)) {
            log.warn("Embedded QuestDB (PID {}) did not stop within {} s after SIGTERM; killing it", current.pid(),
                    STOP_TIMEOUT.toSeconds());
            QuestDbProcess.kill(current.toHandle(), Duration.ofSeconds(5));
        }
    }

    /**
     * The QuestDB jar next to the application: {@code lib/questdb-*.jar} beside the jar (or classes
     * folder) that {@code application} was loaded from; the system property {@code qubiq.questdb.jar}
     * overrides it.
     */
    public static Path locateJar(Class<?> application) {
        String override = System.getProperty("qubiq.questdb.jar");
        if (override != null) {
            return Path.of(override);
        }
        try {
            Path code = Path.of(application.getProtectionDomain().getCodeSource().getLocation().toURI());
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
