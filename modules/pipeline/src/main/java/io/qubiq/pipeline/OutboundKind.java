package io.qubiq.pipeline;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.config.ConfigChecked.Violation;
import io.qubiq.core.config.Variant;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * One kind of outbound connection (QuestDB, SQL, MongoDB, MQTT), described once: the configuration
 * section that selects it, how to build its sink, the codec that stores its items in the buffer and
 * previews them in quarantine, the overflow policy its channel takes unless configured, and how a
 * pipeline output of this kind becomes an item. The connection probe is the sink's own
 * {@link Sink#probe}; the user documentation is {@link #docs}. Generic wiring (the outbound
 * connections, the pipeline outputs, the configuration checks) asks the kind and never tests a kind's
 * name.
 *
 * <p><b>Where this lives, and why.</b> Its signature names only shared vocabulary: core's
 * {@link Sink} and {@link ItemCodec}, the buffer's {@link OverflowPolicy}, and the pipeline's
 * {@link ItemMapper}, {@link OutputConfig} and {@link ExpressionEngine}. The pipeline module is the
 * lowest module that sees all of these, and it names no driver, so the interface sits here and
 * dependencies keep pointing inward. The record under {@code outbound.<id>} is the application's
 * own configuration, so it is the type parameter {@code C}: nothing of gateway-app leaks down.
 * Implementations need a driver (their sink module) and the pipeline mapping, so they live above
 * both; today in gateway-app ({@code io.qubiq.app.outbound}), whose {@code OutboundKinds} is the one
 * list of every kind. Adding a kind is its sink module, its two configuration variants, its kind
 * class and one line in that list.
 *
 * <p>Implementations are stateless and safe to share between threads.
 *
 * @param <C> the record under {@code outbound.<id>} that this kind's section selects
 * @param <O> the pipeline output variant of this kind
 * @param <T> the item type of the kind's sink, carried by its store-and-forward channel
 */
public interface OutboundKind<C, O extends OutputConfig, T> {

    /** The record under {@code outbound.<id>}; its {@code @Variant} is the section key and this kind's name. */
    Class<C> configType();

    /** The pipeline output variant; its {@code @Variant} is the same section key. */
    Class<O> outputType();

    /** The items the sink writes. */
    Class<T> itemType();

    /** The section key that selects this kind ({@code sql} for {@code outbound.<id>.sql:}). */
    default String name() {
        return configType().getAnnotation(Variant.class).value();
    }

    /** The sink for connection {@code id}; nothing is opened yet. */
    Sink<T> sink(String id, C config, Clock clock) throws ConfigurationException;

    /** Stores items in the buffer and quarantine, and previews them for operators. */
    ItemCodec<T> codec();

    /**
     * What the channel does at its byte limit unless {@code store_and_forward.overflow_policy} says
     * otherwise: drop the oldest where fresh data matters more than old (QuestDB, MQTT), refuse new
     * items where every row counts (SQL, MongoDB).
     */
    OverflowPolicy defaultOverflow();

    /**
     * The mapper of one pipeline output; {@code key} is the output's key path
     * ({@code pipelines.p.outputs[0]}) for messages.
     */
    ItemMapper<T> mapper(String key, O output, ExpressionEngine engine, Set<String> variables)
            throws ExpressionException;

    /**
     * Checks of an output against this kind's own rules (a SQL statement's parameters, say), with keys
     * relative to the output; run while the configuration loads.
     */
    default List<Violation> checkOutput(O output) {
        return List.of();
    }

    /** The user documentation of this kind, relative to the repository root. */
    String docs();
}
