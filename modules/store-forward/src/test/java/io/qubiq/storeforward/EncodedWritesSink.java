package io.qubiq.storeforward;

import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.EncodedItems;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sink with {@link EncodedWrites} in front of another sink: it decodes the bytes it is given
 * (refusing bytes that do not decode, as the contract asks) and writes them through the other sink, so a scripted destination behaves the same whichever way the
 * channel hands it items, and counts what it delivered each way.
 */
final class EncodedWritesSink<T> implements Sink<T>, EncodedWrites {

    private final Sink<T> delegate;
    private final ItemCodec<T> codec;
    /** Items written successfully, by the way they came. */
    final AtomicInteger deliveredAsBytes = new AtomicInteger();
    final AtomicInteger deliveredAsItems = new AtomicInteger();

    EncodedWritesSink(Sink<T> delegate, ItemCodec<T> codec) {
        this.delegate = delegate;
        this.codec = codec;
    }

    @Override
    public void writeEncoded(EncodedItems items) throws GatewayException {
        List<T> decoded = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            try {
                byte[] item = items.array(i);
                decoded.add(codec.decode(Arrays.copyOfRange(item, items.offset(i), item.length)));
            } catch (PermanentException e) {
                throw EncodedWrites.undecodable(i, e);
            }
        }
        delegate.write(decoded);
        deliveredAsBytes.addAndGet(items.size());
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void write(List<T> batch) throws GatewayException {
        delegate.write(batch);
        deliveredAsItems.addAndGet(batch.size());
    }

    @Override
    public ConnectionStatus probe() {
        return delegate.probe();
    }

    @Override
    public boolean idempotent() {
        return delegate.idempotent();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
