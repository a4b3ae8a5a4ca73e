package io.qubiq.app.runtime;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Turns SIGTERM and SIGINT into an orderly shutdown the main thread performs, so a clean stop
 * exits with 0 (the JVM's default handler would exit with 143 or 130). The first signal releases
 * {@link #awaitRequest()}; a second one, for an operator who does not want to wait, halts the
 * process at once through {@code forcedExit}.
 *
 * <p>Threading: signal handlers run on the JVM's signal thread and only count and release.
 */
public final class SignalShutdown {

    private static final Logger log = LoggerFactory.getLogger(SignalShutdown.class);

    private final CountDownLatch requested = new CountDownLatch(1);
    private final AtomicInteger signals = new AtomicInteger();
    private final IntConsumer forcedExit;
    private volatile String reason = "not requested";

    public SignalShutdown(IntConsumer forcedExit) {
        this.forcedExit = forcedExit;
    }

    /** Installs the handlers; call once, before start-up begins, so an early signal is not lost. */
    public void install(int forcedExitCode) {
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), signal -> onSignal("SIG" + signal.getName(), forcedExitCode));
        }
    }

    void onSignal(String name, int forcedExitCode) {
        if (signals.incrementAndGet() == 1) {
            reason = name;
            log.info("{} received: stopping the gateway", name);
            requested.countDown();
        } else {
            log.error("{} received again while stopping: halting now without finishing the shutdown", name);
            forcedExit.accept(forcedExitCode);
        }
    }

    /** Requests a shutdown from inside the process (tests, fatal component errors). */
    public void request(String why) {
        if (signals.incrementAndGet() == 1) {
            reason = why;
            requested.countDown();
        }
    }

    public void awaitRequest() throws InterruptedException {
        requested.await();
    }

    /** Waits at most {@code timeout} for a request; true when one came. */
    public boolean awaitRequest(java.time.Duration timeout) throws InterruptedException {
        return requested.await(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    public String reason() {
        return reason;
    }
}
