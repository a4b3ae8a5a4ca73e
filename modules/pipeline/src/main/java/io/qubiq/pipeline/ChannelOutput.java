package io.qubiq.pipeline;

import io.qubiq.core.tag.Custody;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;
import io.qubiq.storeforward.ChannelException;
import io.qubiq.storeforward.ChannelFullException;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An output that submits to a store-and-forward channel. The channel decides everything after
 * that: fast path or buffer, retries, quarantine, drop-oldest or refuse at its byte limit.
 * Owned by the pipeline's event thread; the counters may be read from any thread.
 *
 * @param <T> the channel's item type
 */
public final class ChannelOutput<T> implements PipelineOutput {

    private final StoreForwardChannel<T> channel;
    private final ItemMapper<T> mapper;
    private final List<T> pending = new ArrayList<>();
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    public ChannelOutput(StoreForwardChannel<T> channel, ItemMapper<T> mapper) {
        this.channel = channel;
        this.mapper = mapper;
    }

    @Override
    public String connection() {
        return channel.connection();
    }

    @Override
    public void prepare(Scope scope, String itemId) throws ExpressionException {
        pending.add(mapper.map(scope, itemId));
    }

    @Override
    public void discardLast() {
        if (!pending.isEmpty()) {
            pending.remove(pending.size() - 1);
        }
    }

    @Override
    public int submit() throws OutputRefusedException {
        return submit(Custody.NONE);
    }

    @Override
    public int submit(Custody custody) throws OutputRefusedException {
        if (pending.isEmpty()) {
            custody.release();
            return 0;
        }
        List<T> batch = List.copyOf(pending);
        pending.clear();
        try {
            channel.submit(batch, custody); // the channel releases it, on every path
            submitted.addAndGet(batch.size());
            return batch.size();
        } catch (ChannelFullException e) {
            refused.addAndGet(batch.size());
            throw new OutputRefusedException("connection " + connection() + " refused " + batch.size() + " item(s): "
                    + e.getMessage(), batch.size(), e);
        } catch (ChannelException e) {
            refused.addAndGet(batch.size());
            throw new OutputRefusedException("connection " + connection() + " did not take " + batch.size()
                    + " item(s): " + e.getMessage(), batch.size(), e);
        }
    }

    @Override
    public OutputCounts counts() {
        return new OutputCounts(connection(), submitted.get(), refused.get());
    }
}
