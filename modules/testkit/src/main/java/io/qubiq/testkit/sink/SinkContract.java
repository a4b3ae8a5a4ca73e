package io.qubiq.testkit.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Sink} promises the store-and-forward channel, run against a real server of
 * the sink's kind. A sink test class extends this, starts its server once for the class, and
 * supplies items numbered by an int so the contract can tell which ones arrived.
 *
 * <p>The promises: a batch that {@code write} returned from is at the destination, complete; an
 * empty batch is harmless; an unreachable destination is a {@link TransientException} (never
 * permanent: an outage must not dead-letter data) and a DOWN probe; an item the destination
 * rejects is a {@link PermanentException} that, when it names items, names exactly the bad one,
 * and says truthfully whether the others were written; the codec round-trips; close is idempotent.
 *
 * @param <T> the sink's item type
 */
public abstract class SinkContract<T> {

    /** A sink for the running server. Each call makes a new one; the contract closes it. */
    protected abstract Sink<T> newSink() throws Exception;

    /** A sink configured for a destination that refuses connections (a closed port). */
    protected abstract Sink<T> newSinkToUnreachableDestination() throws Exception;

    /** A valid item that the destination will hold as number {@code n}, distinct per n and per test. */
    protected abstract T item(int n);

    /** An item the destination rejects for its data (constraint, type, size): never a transport error. */
    protected abstract T poisonItem(int n);

    /**
     * The numbers of the items written by this test that the destination holds now, in the order it
     * keeps them. Waits for asynchronous delivery (a subscriber) where the destination needs it.
     */
    protected abstract List<Integer> delivered() throws Exception;

    protected abstract ItemCodec<T> codec();

    /** Whether the destination keeps write order, so {@link #delivered} can be checked in order. */
    protected boolean keepsOrder() {
        return true;
    }

    private List<T> items(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(this::item).toList();
    }

    @Test
    void aBatchThatWriteReturnedFromIsAtTheDestinationComplete() throws Exception {
        try (Sink<T> sink = newSink()) {
            sink.write(items(0, 50));
            sink.write(items(50, 50));
            List<Integer> expected = IntStream.range(0, 100).boxed().toList();
            if (keepsOrder()) {
                assertThat(delivered()).containsExactlyElementsOf(expected);
            } else {
                assertThat(delivered()).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }

    @Test
    void anEmptyBatchWritesNothingAndSucceeds() throws Exception {
        try (Sink<T> sink = newSink()) {
            sink.write(List.of());
            assertThat(delivered()).isEmpty();
        }
    }

    @Test
    void anUnreachableDestinationIsTransientAndProbesDown() throws Exception {
        try (Sink<T> sink = newSinkToUnreachableDestination()) {
            assertThatThrownBy(() -> sink.write(items(0, 3))).isInstanceOf(TransientException.class);
            assertThat(sink.probe().state()).isEqualTo(ConnectionState.DOWN);
            assertThat(sink.probe().lastError()).isPresent();
        }
    }

    @Test
    void aReachableDestinationProbesUp() throws Exception {
        try (Sink<T> sink = newSink()) {
            assertThat(sink.probe().state()).isEqualTo(ConnectionState.UP);
        }
    }

    @Test
    void aRejectedItemIsPermanentAndNamedTruthfully() throws Exception {
        try (Sink<T> sink = newSink()) {
            List<T> batch = new ArrayList<>(items(0, 2));
            batch.add(poisonItem(2));
            batch.addAll(items(3, 2));

            Throwable thrown = catchThrowable(() -> sink.write(batch));

            assertThat(thrown).isInstanceOf(PermanentException.class);
            PermanentException permanent = (PermanentException) thrown;
            if (permanent.itemsKnown()) {
                assertThat(permanent.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(2);
                assertThat(permanent.rejected().get(0).reason()).isNotBlank();
            }
            List<Integer> arrived = delivered();
            if (permanent.othersWritten()) {
                assertThat(arrived).containsExactlyInAnyOrder(0, 1, 3, 4);
            } else {
                assertThat(arrived).as("a rejected batch that is not partial wrote nothing").isEmpty();
            }
        }
    }

    @Test
    void theCodecRoundTripsItemsAndPreviewsThem() throws Exception {
        ItemCodec<T> codec = codec();
        for (T item : List.of(item(0), item(1), poisonItem(2))) {
            assertThat(codec.decode(codec.encode(item))).isEqualTo(item);
            assertThat(codec.preview(item)).isNotBlank();
        }
    }

    @Test
    void closingTwiceIsHarmless() throws Exception {
        Sink<T> sink = newSink();
        sink.close();
        sink.close();
    }
}
