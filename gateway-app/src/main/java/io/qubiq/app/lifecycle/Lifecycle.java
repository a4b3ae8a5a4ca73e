package io.qubiq.app.lifecycle;

import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts components in the order given (dependencies first) and stops them in reverse.
 *
 * <p>Start: each component's {@code start()} runs in turn; the first that throws is marked FAILED,
 * every component started before it is stopped again in reverse order, and {@link #startAll}
 * throws. Readiness turns READY only after the last component started.
 *
 * <p>Stop: readiness turns STOPPING, then each started component is stopped in reverse order on a
 * worker thread, all within one overall grace period. A component whose stop throws is logged and
 * the shutdown continues; when the period runs out, the report names what was still stopping.
 * Calling {@link #stopAll} a second time returns at once with an empty report.
 *
 * <p>Threading: {@code startAll} runs on the main thread; {@code stopAll} may come from a signal
 * while start-up is still running: it then waits for the component being started, and start-up
 * starts no further component. The status accessors are safe from any thread.
 */
public final class Lifecycle {

    private static final Logger log = LoggerFactory.getLogger(Lifecycle.class);

    private final List<ComponentSlot> slots = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Clock clock;
    private volatile Readiness readiness = Readiness.STARTING;
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private int started;

    public Lifecycle(Clock clock) {
        this.clock = clock;
    }

    /** Adds the next component in start order; only before {@link #startAll}. */
    public synchronized Lifecycle add(Component component) {
        if (readiness != Readiness.STARTING || started > 0 || stopRequested.get()) {
            throw new IllegalStateException("components are added before start-up, not after");
        }
        if (slots.stream().anyMatch(slot -> slot.name().equals(component.name()))) {
            throw new IllegalArgumentException("two components are named '" + component.name() + "'");
        }
        slots.add(new ComponentSlot(component, clock));
        return this;
    }

    public Readiness readiness() {
        return readiness;
    }

    public List<ComponentStatus> statuses() {
        return slots.stream().map(ComponentSlot::status).toList();
    }

    public synchronized void startAll() throws StartupException {
        for (ComponentSlot slot : slots) {
            if (stopRequested.get()) {
                log.info("Start-up interrupted by shutdown before '{}'", slot.name());
                return;
            }
            slot.moveTo(ComponentState.STARTING);
            long begin = System.nanoTime();
            try {
                slot.component().start();
            } catch (Exception | LinkageError e) {
                slot.fail(e);
                readiness = Readiness.FAILED;
                // The cause is named in one line; the stack trace helps only for bugs, so DEBUG has it.
                log.error("Component '{}' failed to start: {}", slot.name(), e.toString());
                log.debug("Start-up failure of '{}'", slot.name(), e);
                stopStarted(Duration.ofSeconds(30));
                throw new StartupException(slot.name(), e);
            }
            slot.moveTo(ComponentState.RUNNING);
            started++;
            log.debug("Started '{}' in {} ms", slot.name(), (System.nanoTime() - begin) / 1_000_000);
        }
        readiness = Readiness.READY;
    }

    /** Stops every started component in reverse order within {@code gracePeriod}. */
    public StopReport stopAll(Duration gracePeriod) {
        if (!stopRequested.compareAndSet(false, true)) {
            return new StopReport(Duration.ZERO, List.of(), List.of());
        }
        if (readiness != Readiness.FAILED) {
            readiness = Readiness.STOPPING;
        }
        synchronized (this) {
            return stopStarted(gracePeriod);
        }
    }

    private StopReport stopStarted(Duration gracePeriod) {
        long begin = System.nanoTime();
        long deadline = begin + gracePeriod.toNanos();
        List<String> failed = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        ExecutorService stopper = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "component-stopper");
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (int i = started - 1; i >= 0; i--) {
                ComponentSlot slot = slots.get(i);
                if (!unfinished.isEmpty()) {
                    unfinished.add(slot.name());
                    continue;
                }
                slot.moveTo(ComponentState.STOPPING);
                Future<?> stopping = stopper.submit(() -> {
                    slot.component().stop();
                    return null;
                });
                try {
                    stopping.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    slot.moveTo(ComponentState.STOPPED);
                } catch (ExecutionException e) {
                    slot.fail(e.getCause());
                    failed.add(slot.name());
                    log.warn("Component '{}' failed while stopping: {}", slot.name(), e.getCause().toString(),
                            e.getCause());
                } catch (TimeoutException e) {
                    stopping.cancel(true);
                    unfinished.add(slot.name());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    unfinished.add(slot.name());
                }
            }
            started = 0;
        } finally {
            stopper.shutdownNow();
        }
        return new StopReport(Duration.ofNanos(System.nanoTime() - begin), List.copyOf(failed),
                List.copyOf(unfinished));
    }
}
