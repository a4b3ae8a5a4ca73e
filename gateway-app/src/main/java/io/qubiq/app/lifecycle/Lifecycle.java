package io.qubiq.app.lifecycle;

import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * <p>Two kinds of component. A <i>required</i> one ({@link #add}: the HTTP console, the tag bus, the
 * connection monitor) is one the gateway cannot run without: the first that fails to start is marked
 * FAILED, every component started before it is stopped again in reverse order, readiness turns FAILED
 * and {@link #startAll} throws. An <i>isolated</i> one ({@link #addIsolated}: a store-and-forward
 * channel, the device connections, the pipelines) is one the rest can run without: when it fails to
 * start it is marked FAILED with its reason, logged at ERROR once, and start-up goes on with the next
 * component. So is a component whose prerequisite failed (not started, FAILED, naming it). Once the
 * last component was tried, readiness turns READY, or DEGRADED when an isolated component failed.
 *
 * <p>Stop: readiness turns STOPPING, then each started component is stopped in reverse order on a
 * worker thread, all within one overall grace period. A component whose stop throws is logged and
 * the shutdown continues; when the period runs out, the report names what was still stopping.
 * Components that never started are not stopped. Calling {@link #stopAll} a second time returns at
 * once with an empty report.
 *
 * <p>While it runs, a component started by someone else can join ({@link #adopt}: an outbound connection's
 * channel added live) at a chosen place in the stop order, and one stopped by someone else can leave
 * ({@link #retire}: a channel removed live), so that the status list and the shutdown match what runs.
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
    /** The components whose start returned, in start order; guarded by this. */
    private final List<ComponentSlot> started = new ArrayList<>();

    public Lifecycle(Clock clock) {
        this.clock = clock;
    }

    /** Adds the next required component in start order: if it cannot start, the gateway does not start. */
    public synchronized Lifecycle add(Component component) {
        return add(new ComponentSlot(component, false, List.of(), clock));
    }

    /**
     * Adds the next isolated component in start order: if it cannot start, or one of {@code needs}
     * (added before it) did not, it is marked FAILED and the gateway starts without it.
     */
    public synchronized Lifecycle addIsolated(Component component, Component... needs) {
        List<String> prerequisites = new ArrayList<>();
        for (Component need : needs) {
            if (slots.stream().noneMatch(slot -> slot.component() == need)) {
                throw new IllegalArgumentException("'" + component.name() + "' needs '" + need.name()
                        + "', which must be added before it");
            }
            prerequisites.add(need.name());
        }
        return add(new ComponentSlot(component, true, prerequisites, clock));
    }

    private Lifecycle add(ComponentSlot added) {
        if (readiness != Readiness.STARTING || !started.isEmpty() || stopRequested.get()) {
            throw new IllegalStateException("components are added before start-up, not after");
        }
        if (slots.stream().anyMatch(slot -> slot.name().equals(added.name()))) {
            throw new IllegalArgumentException("two components are named '" + added.name() + "'");
        }
        slots.add(added);
        return this;
    }

    /**
     * Takes {@code component}, already started by the caller, as a running isolated component placed just
     * before {@code stopsAfter} in start order, so that a shutdown stops it after {@code stopsAfter} (a channel
     * stops after the pipelines that write to it). Without {@code stopsAfter} in the list it goes last.
     *
     * @throws IllegalStateException a shutdown has begun (the caller stops the component itself) or start-up
     *     has not finished
     */
    public synchronized void adopt(Component component, Component stopsAfter) {
        if (stopRequested.get() || readiness == Readiness.STARTING || readiness == Readiness.FAILED) {
            throw new IllegalStateException("'" + component.name() + "' cannot join: the gateway is " + readiness);
        }
        if (slots.stream().anyMatch(slot -> slot.name().equals(component.name()))) {
            throw new IllegalArgumentException("two components are named '" + component.name() + "'");
        }
        ComponentSlot slot = new ComponentSlot(component, true, List.of(), clock);
        slot.moveTo(ComponentState.RUNNING);
        int at = indexOf(stopsAfter);
        slots.add(at < 0 ? slots.size() : at, slot);
        started.add(slot);
        started.sort(java.util.Comparator.comparingInt(slots::indexOf));
    }

    /** Forgets {@code component}, stopped by the caller: no longer listed, not stopped again at shutdown. */
    public synchronized void retire(Component component) {
        slots.removeIf(slot -> slot.component() == component);
        started.removeIf(slot -> slot.component() == component);
    }

    private int indexOf(Component component) {
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i).component() == component) {
                return i;
            }
        }
        return -1;
    }

    public Readiness readiness() {
        return readiness;
    }

    public List<ComponentStatus> statuses() {
        return slots.stream().map(ComponentSlot::status).toList();
    }

    /**
     * Starts every component in order.
     *
     * @throws StartupException a required component failed to start; everything started before it
     *     has been stopped again
     */
    public synchronized void startAll() throws StartupException {
        boolean degraded = false;
        for (ComponentSlot slot : slots) {
            if (stopRequested.get()) {
                log.info("Start-up interrupted by shutdown before '{}'", slot.name());
                return;
            }
            Optional<String> failedNeed = slot.needs().stream().filter(this::failed).findFirst();
            if (failedNeed.isPresent()) {
                slot.fail("not started: it needs '" + failedNeed.get() + "', which failed to start");
                log.error("Component '{}' not started: it needs '{}', which failed to start", slot.name(),
                        failedNeed.get());
                degraded = true;
                continue;
            }
            slot.moveTo(ComponentState.STARTING);
            long begin = System.nanoTime();
            try {
                slot.component().start();
            } catch (Exception | LinkageError e) {
                String reason = FailureReason.of(e);
                slot.fail(reason);
                // The cause is named in one line; the stack trace helps only for bugs, so DEBUG has it.
                log.debug("Start-up failure of '{}'", slot.name(), e);
                if (slot.isolated()) {
                    log.error("Component '{}' failed to start: {}; the gateway runs without it", slot.name(), reason);
                    degraded = true;
                    continue;
                }
                log.error("Component '{}' failed to start: {}", slot.name(), reason);
                readiness = Readiness.FAILED;
                stopStarted(Duration.ofSeconds(30));
                throw new StartupException(slot.name(), reason, e);
            }
            slot.moveTo(ComponentState.RUNNING);
            started.add(slot);
            log.debug("Started '{}' in {} ms", slot.name(), (System.nanoTime() - begin) / 1_000_000);
        }
        readiness = degraded ? Readiness.DEGRADED : Readiness.READY;
    }

    private boolean failed(String name) {
        return slots.stream().anyMatch(slot -> slot.name().equals(name)
                && slot.status().state() == ComponentState.FAILED);
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
            for (int i = started.size() - 1; i >= 0; i--) {
                ComponentSlot slot = started.get(i);
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
                    slot.fail(FailureReason.of(e.getCause()));
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
            started.clear();
        } finally {
            stopper.shutdownNow();
        }
        return new StopReport(Duration.ofNanos(System.nanoTime() - begin), List.copyOf(failed),
                List.copyOf(unfinished));
    }
}
