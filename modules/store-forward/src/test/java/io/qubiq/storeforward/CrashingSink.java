package io.qubiq.storeforward;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import io.qubiq.testkit.ScriptedSink;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A sink with bugs, in front of a {@link ScriptedSink} that records what gets through: it throws an
 * {@link Error} once on the next write (then holds the write after it until {@link #release}, so a
 * test can look at the channel while its forwarder is being restarted), and throws an unclassified
 * exception (or an {@link Error}) for every batch that holds a chosen item.
 */
final class CrashingSink implements Sink<String> {

    private final ScriptedSink<String> behind;
    private final AtomicReference<Error> nextError = new AtomicReference<>();
    private volatile CountDownLatch hold = new CountDownLatch(0);
    private volatile Predicate<String> crashOn = item -> false;
    private volatile Function<String, ? extends Throwable> crash = item -> new IllegalStateException(item);

    CrashingSink(ScriptedSink<String> behind) {
        this.behind = behind;
    }

    /** The next write throws {@code error}; the write after it waits for {@link #release}. */
    CrashingSink errorOnce(Error error) {
        hold = new CountDownLatch(1);
        nextError.set(error);
        return this;
    }

    void release() {
        hold.countDown();
    }

    /** Every write of a batch holding an item {@code item} matches throws what {@code exception} makes. */
    CrashingSink crashOn(Predicate<String> item, Function<String, RuntimeException> exception) {
        crashOn = item;
        crash = exception;
        return this;
    }

    /** Every write of a batch holding an item {@code item} matches throws the {@link Error} {@code error} makes. */
    CrashingSink errorOn(Predicate<String> item, Function<String, Error> error) {
        crashOn = item;
        crash = error;
        return this;
    }

    @Override
    public String id() {
        return behind.id();
    }

    @Override
    public void write(List<String> batch) throws GatewayException {
        Error error = nextError.getAndSet(null);
        if (error != null) {
            throw error;
        }
        try {
            if (!hold.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the sink");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.qubiq.core.error.TransientException("interrupted");
        }
        for (String item : batch) {
            if (crashOn.test(item)) {
                Throwable thrown = crash.apply(item);
                if (thrown instanceof Error crashError) {
                    throw crashError;
                }
                throw (RuntimeException) thrown;
            }
        }
        behind.write(batch);
    }

    @Override
    public ConnectionStatus probe() {
        return behind.probe();
    }

    @Override
    public boolean idempotent() {
        return behind.idempotent();
    }

    @Override
    public void close() {
        behind.close();
    }
}
