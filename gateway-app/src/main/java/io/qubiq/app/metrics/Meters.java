package io.qubiq.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

/**
 * Registers gauges and function counters that keep what they read alive. Micrometer holds the
 * object a gauge or function counter reads only weakly; an object nothing else references (a
 * method reference such as {@code channel::status}, a lambda made at bind time) is collected at
 * the next GC and the series then reads NaN, or 0 for a counter. Every object bound here is also
 * held in {@link #held}, for as long as this instance lives, which is as long as the gateway.
 *
 * <p>Threading: registration from the wiring thread; the read functions run on scrape threads.
 */
final class Meters {

    private final MeterRegistry registry;
    private final List<Object> held = new CopyOnWriteArrayList<>();

    Meters(MeterRegistry registry) {
        this.registry = registry;
    }

    MeterRegistry registry() {
        return registry;
    }

    <T> void gauge(String name, String description, Tags tags, T source, ToDoubleFunction<T> value) {
        held.add(source);
        Gauge.builder(name, source, value).description(description).tags(tags).strongReference(true)
                .register(registry);
    }

    /** A counter whose total is read from {@code source}; Prometheus shows it with {@code _total}. */
    <T> void counter(String name, String description, Tags tags, T source, ToDoubleFunction<T> value) {
        held.add(source);
        FunctionCounter.builder(name, source, value).description(description).tags(tags).register(registry);
    }
}
