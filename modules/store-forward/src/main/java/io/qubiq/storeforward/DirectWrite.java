package io.qubiq.storeforward;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.sink.Sink;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One write of a batch straight to the sink, before anything of it is buffered: a handed-off batch
 * written by the forwarder, or a synchronous channel's batch written on the producer's thread. On
 * failure it says what of the batch must still go to the buffer, enveloped with the attempt the
 * write used up, by the verdict of {@link DeliveryPolicy} (the buffer's {@link DeliveryAttempt}
 * then applies the same policy to it):
 * <ul>
 *   <li>permanent, the sink naming the rejected items and having written the others: only the
 *       rejected ones, one attempt each (they are quarantined in order from the buffer);
 *   <li>permanent otherwise, unknown outcome, or anything unclassified (a sink bug, an {@link Error}
 *       that is not the JVM's own such as {@code StackOverflowError}): the whole batch, one attempt
 *       each, so the attempt cap decides (the buffer's delivery narrows it to the item at fault);
 *   <li>transient or configuration: the whole batch, no attempt (an outage never counts);
 *   <li>a failure of the JVM ({@code OutOfMemoryError}): the whole batch, one attempt each, and the
 *       error is not swallowed: it comes back in the {@link Failure}, for the caller to rethrow once
 *       the batch is safe in the buffer (the forwarder's supervisor then restarts the thread).
 * </ul>
 *
 * <p>Threading: holds no state; called by one thread at a time (see {@link StoreForwardChannel}).
 */
final class DirectWrite<T> {

    private static final Logger log = LoggerFactory.getLogger(DirectWrite.class);

    /**
     * A write that failed.
     *
     * @param toBuffer     envelopes of what must go to the buffer, in order
     * @param written      items the sink wrote although the write failed (a permanent rejection of others)
     * @param writtenBytes their encoded size
     * @param error        an {@link Error} the sink threw, to rethrow once {@code toBuffer} is buffered
     * @param timedOut     the destination's timeout cut the write off (see {@link WriteWindow})
     */
    record Failure(List<byte[]> toBuffer, int written, long writtenBytes, Optional<Error> error, boolean timedOut) {

        /** Rethrows the sink's {@link Error}, if it threw one. */
        void rethrowError() {
            if (error.isPresent()) {
                throw error.get();
            }
        }
    }

    private final String connection;
    private final Sink<T> sink;
    private final Function<List<T>, List<byte[]>> encoder;
    private final ChannelCounters counters;
    private final Clock clock;

    DirectWrite(String connection, Sink<T> sink, Function<List<T>, List<byte[]>> encoder, ChannelCounters counters,
                Clock clock) {
        this.connection = connection;
        this.sink = sink;
        this.encoder = encoder;
        this.counters = counters;
        this.clock = clock;
    }

    /** Writes {@code batch}; empty when the sink wrote all of it. Counts the attempts and the last error. */
    Optional<Failure> write(List<T> batch) {
        counters.deliveryAttempts.addAndGet(batch.size());
        try {
            sink.write(batch);
            return Optional.empty();
        } catch (GatewayException | RuntimeException | Error e) {
            DeliveryPolicy.Verdict verdict = DeliveryPolicy.judge(e);
            counters.error(verdict.reason(), clock.instant());
            return Optional.of(switch (verdict.kind()) {
                case REJECTED -> permanent(batch, verdict.rejection());
                case MISCONFIGURED -> {
                    log.error("Destination {} is misconfigured ({}); fix the configuration, items stay buffered",
                            connection, verdict.reason());
                    yield whole(batch, 0, Optional.empty());
                }
                case SINK_BUG -> {
                    log.error("Sink of {} threw {} writing {} items directly; they are buffered and retried up to"
                            + " the attempt cap", connection, e.toString(), batch.size(), e);
                    yield whole(batch, 1, Optional.empty());
                }
                case FATAL -> whole(batch, 1, Optional.of((Error) e));
                case OUTAGE, NO_VERDICT ->
                        whole(batch, verdict.kind().attempts(), Optional.empty(), verdict.timedOut());
            });
        }
    }

    private Failure permanent(List<T> batch, PermanentException e) {
        List<byte[]> items = encoder.apply(batch);
        boolean indexesValid = e.rejected().stream().allMatch(r -> r.index() >= 0 && r.index() < items.size());
        if (!e.othersWritten() || !indexesValid) {
            return new Failure(wrap(items, 1), 0, 0, Optional.empty(), false);
        }
        // the sink wrote all but the rejected ones: only those go on, to be quarantined in order
        List<byte[]> rejected = new ArrayList<>();
        long rejectedBytes = 0;
        for (PermanentException.RejectedItem item : e.rejected()) {
            rejected.add(items.get(item.index()));
            rejectedBytes += items.get(item.index()).length;
        }
        long bytes = items.stream().mapToLong(b -> b.length).sum();
        return new Failure(wrap(rejected, 1), batch.size() - rejected.size(), bytes - rejectedBytes, Optional.empty(),
                false);
    }

    private Failure whole(List<T> batch, int attempts, Optional<Error> error) {
        return whole(batch, attempts, error, false);
    }

    private Failure whole(List<T> batch, int attempts, Optional<Error> error, boolean timedOut) {
        return new Failure(wrap(encoder.apply(batch), attempts), 0, 0, error, timedOut);
    }

    private List<byte[]> wrap(List<byte[]> items, int attempts) {
        long firstFailure = attempts == 0 ? 0 : clock.millis();
        List<byte[]> payloads = new ArrayList<>(items.size());
        for (byte[] item : items) {
            payloads.add(ItemEnvelope.wrap(attempts, firstFailure, item));
        }
        return payloads;
    }
}
