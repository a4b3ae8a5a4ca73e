package io.qubiq.pipeline;

import io.qubiq.core.time.ManualTicker;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose delays run on a {@link ManualTicker}, for timer tests without sleeping: only
 * {@code schedule(Runnable, long, TimeUnit)} is supported; {@link #runDue} runs, on the test's
 * thread, every task whose delay has passed on the ticker. Not thread-safe: one test thread.
 */
final class ManualScheduler {

    private record Task(Runnable task, long dueNanos, boolean[] cancelled) {
    }

    private final ManualTicker ticker;
    private final List<Task> tasks = new ArrayList<>();

    ManualScheduler(ManualTicker ticker) {
        this.ticker = ticker;
    }

    ScheduledExecutorService executor() {
        return (ScheduledExecutorService) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ScheduledExecutorService.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("schedule") || !(args[0] instanceof Runnable runnable)) {
                        throw new UnsupportedOperationException(method.toString());
                    }
                    boolean[] cancelled = {false};
                    long delayNanos = ((TimeUnit) args[2]).toNanos((Long) args[1]);
                    tasks.add(new Task(runnable, ticker.nanos() + delayNanos, cancelled));
                    return future(cancelled);
                });
    }

    private static ScheduledFuture<?> future(boolean[] cancelled) {
        return (ScheduledFuture<?>) Proxy.newProxyInstance(ManualScheduler.class.getClassLoader(),
                new Class<?>[] {ScheduledFuture.class}, (proxy, method, args) -> {
                    if (method.getName().equals("cancel")) {
                        cancelled[0] = true;
                        return true;
                    }
                    throw new UnsupportedOperationException(method.toString());
                });
    }

    /** Runs every task due by the ticker's reading now (a task may schedule the next one). */
    void runDue() {
        boolean ran = true;
        while (ran) {
            ran = false;
            for (Task task : List.copyOf(tasks)) {
                if (task.dueNanos - ticker.nanos() <= 0) {
                    tasks.remove(task);
                    if (!task.cancelled[0]) {
                        task.task.run();
                    }
                    ran = true;
                }
            }
        }
    }

    /** Tasks waiting, for checking that a timer keeps exactly one run scheduled. */
    int waiting() {
        return tasks.size();
    }
}
