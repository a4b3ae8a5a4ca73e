package io.qubiq.core.lifecycle;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A periodic task that outlives what it throws. A {@link java.util.concurrent.ScheduledExecutorService}
 * cancels every later run of a task that throws, without a word: an {@code OutOfMemoryError} in one
 * run of a disk watcher, a WAL supervisor or a connection probe would stop it for the rest of the
 * gateway's life while everything looks fine. Every periodic task of the gateway is scheduled
 * through {@link #guarded}: what a run throws (an {@link Error} included) goes to its failure
 * handler, usually a log line, and the next run happens as planned.
 *
 * <p>Stateless; the returned task is as thread-safe as the task it wraps.
 */
public final class Periodic {

    private Periodic() {
    }

    /**
     * {@code task}, with anything it throws handed to {@code onFailure} instead of cancelling its
     * schedule. A failure handler that throws is ignored for the same reason.
     */
    public static Runnable guarded(Runnable task, Consumer<Throwable> onFailure) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(onFailure, "onFailure");
        return () -> {
            try {
                task.run();
            } catch (Throwable failure) {
                try {
                    onFailure.accept(failure);
                } catch (Throwable ignored) {
                    // the handler (a log appender) failed too: still, the next run must happen
                }
            }
        };
    }
}
