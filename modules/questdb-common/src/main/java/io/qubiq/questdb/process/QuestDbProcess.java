package io.qubiq.questdb.process;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a parent does with a QuestDB child JVM once {@link QuestDbLaunch} started it: wait until it
 * answers, stop it by its PID (SIGTERM, then SIGKILL), and find one left running by a parent that
 * was killed. Each method acts on the one process it is given, never on processes found by name.
 * Error texts are the caller's: these methods say what happened and the caller words it.
 *
 * <p>Stateless; the methods block the calling thread.
 */
public final class QuestDbProcess {

    /** How a wait for QuestDB to answer ended. */
    public enum Readiness {
        /** {@code GET /ping} answered 2xx. */
        READY,
        /** The process exited before it answered. */
        EXITED,
        /** Neither within the timeout. */
        TIMED_OUT
    }

    /** One {@code /ping} may take this long to connect and to answer. */
    static final Duration PING_TIMEOUT = Duration.ofSeconds(2);

    private QuestDbProcess() {
    }

    /**
     * Pings {@code http://127.0.0.1:<httpPort>/ping} until it answers 2xx, the process exits, or
     * {@code timeout} has passed; between pings it waits {@code poll} for the process to exit.
     */
    public static Readiness awaitReady(Process process, int httpPort, Duration timeout, Duration poll)
            throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(PING_TIMEOUT).build();
        HttpRequest ping = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/ping"))
                .timeout(PING_TIMEOUT).GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return Readiness.EXITED;
            }
            try {
                if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() / 100 == 2) {
                    return Readiness.READY;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (process.waitFor(poll.toMillis(), TimeUnit.MILLISECONDS)) {
                return Readiness.EXITED;
            }
        }
        return Readiness.TIMED_OUT;
    }

    /** Sends SIGTERM and waits up to {@code grace}; whether the process has exited. */
    public static boolean terminate(ProcessHandle process, Duration grace) throws InterruptedException {
        process.destroy();
        return awaitExit(process, grace);
    }

    /** Sends SIGKILL and waits up to {@code wait}; whether the process has exited. */
    public static boolean kill(ProcessHandle process, Duration wait) throws InterruptedException {
        process.destroyForcibly();
        return awaitExit(process, wait);
    }

    /** Waits up to {@code timeout} for the process to exit; whether it has. */
    public static boolean awaitExit(ProcessHandle process, Duration timeout) throws InterruptedException {
        try {
            process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for process " + process.pid() + " failed", e.getCause());
        }
    }

    /**
     * The live process {@code pid} if it is a QuestDB server on directory {@code dir} (its command
     * line names {@code io.questdb.ServerMain} and the directory's absolute path): a PID from a file
     * may since belong to anything else, which must never be stopped.
     */
    public static Optional<ProcessHandle> findServer(long pid, Path dir) {
        String path = dir.toAbsolutePath().toString();
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(handle -> handle.info().arguments()
                .map(args -> String.join(" ", args))
                .filter(line -> line.contains("io.questdb.ServerMain") && line.contains(path)).isPresent());
    }
}
