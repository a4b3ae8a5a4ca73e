package io.qubiq.app.connectiontest;

import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.ProbeResult;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a probe on a daemon thread of its own, bounded by the timeout plus a grace period: a probe that overruns it is abandoned (interrupted) and answered as unreachable ("no answer within
 * N ms"). A probe answers a failure of the destination in its result; one that throws, or a caller
 * interrupted while waiting, is a fault of the gateway ({@link RequestFailure.Fault}).
 *
 * <p>Thread-safe: probes run concurrently, each on a thread of the pool (named {@code threadName}), which
 * grows with the tests under way and shrinks when they end.
 */
public final class BoundedProbe {

    private static final long GRACE_MS = 2000;

    private final Duration timeout;
    private final ExecutorService probes;

    /**
     * @param threadName the name of the probes' threads
     * @param timeout    how long a probe may take; the probe is handed it to bound its own steps
     */
    public BoundedProbe(String threadName, Duration timeout) {
        this.timeout = timeout;
        this.probes = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** How long a probe may take. */
    public Duration timeout() {
        return timeout;
    }

    /**
     * The result of {@code probe}, which tests connection {@code id}, or unreachable when it does not answer
     * in time.
     *
     * @throws RequestFailure.Fault the probe threw, or this thread was interrupted while waiting
     */
    public ProbeResult run(String id, Callable<ProbeResult> probe) {
        Future<ProbeResult> attempt = probes.submit(probe);
        try {
            return attempt.get(timeout.toMillis() + GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            attempt.cancel(true);
            return ProbeResult.unreachable("no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw new RequestFailure.Fault("testing " + id + " failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestFailure.Fault("testing " + id + " was interrupted");
        }
    }
}
