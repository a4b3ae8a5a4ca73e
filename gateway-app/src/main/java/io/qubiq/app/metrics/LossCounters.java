package io.qubiq.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.qubiq.core.event.DataLoss;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code qubiq_data_lost_items_total} and {@code qubiq_data_lost_bytes_total}, tagged
 * {@code component}, {@code connection} and {@code reason} (the reason's label, such as
 * {@code drop_oldest}). A pair is registered the first time its tags occur; the counts live in
 * adders read at scrape time, so counting a loss never calls Micrometer.
 *
 * <p>Threading: safe for concurrent callers.
 */
public final class LossCounters {

    private record Key(String component, String connection, String reason) {
    }

    private record Totals(LongAdder items, LongAdder bytes) {
    }

    private final MeterRegistry registry;
    private final ConcurrentHashMap<Key, Totals> totals = new ConcurrentHashMap<>();

    public LossCounters(MeterRegistry registry) {
        this.registry = registry;
    }

    public void count(DataLoss loss) {
        Totals t = totals.computeIfAbsent(new Key(loss.component(), loss.connection(), loss.reason().label()),
                this::register);
        t.items().add(loss.items());
        t.bytes().add(loss.bytes());
    }

    private Totals register(Key key) {
        Totals t = new Totals(new LongAdder(), new LongAdder());
        Tags tags = Tags.of("component", key.component(), "connection", key.connection(), "reason", key.reason());
        FunctionCounter.builder("qubiq_data_lost_items", t.items(), LongAdder::doubleValue)
                .description("Items lost (discarded, refused, damaged or dropped by an operator); see the loss ledger")
                .tags(tags).register(registry);
        FunctionCounter.builder("qubiq_data_lost_bytes", t.bytes(), LongAdder::doubleValue)
                .description("Bytes lost, where known; see the loss ledger")
                .tags(tags).register(registry);
        return t;
    }
}
