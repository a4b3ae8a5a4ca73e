package io.qubiq.app.pipelines;

import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundKinds;
import io.qubiq.pipeline.ChannelOutput;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.PipelineOutput;
import io.qubiq.pipeline.Pipelines;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Builds each pipeline output for its outbound connection: the output's kind makes the mapper, wired
 * to the connection's store-and-forward channel. The configuration has already been checked (the
 * connection exists and is of the output's kind); this re-checks and names the key.
 */
public final class PipelineOutputs implements Pipelines.OutputFactory {

    /** The outbound connections running now (one added live is found by the pipelines changed with it). */
    private final Supplier<Map<String, OutboundConnection<?>>> connections;

    public PipelineOutputs(Supplier<Map<String, OutboundConnection<?>>> connections) {
        this.connections = connections;
    }

    @Override
    public PipelineOutput create(String pipelineId, int index, OutputConfig output, Set<String> variables,
                                 ExpressionEngine engine) throws Exception {
        String key = "pipelines." + pipelineId + ".outputs[" + index + "]";
        OutboundKind<?, ?, ?> kind = OutboundKinds.of(output);
        OutboundConnection<?> connection = connections.get().get(output.connection());
        if (connection == null || connection.kind() != kind) {
            throw new IllegalArgumentException(key + ": connection " + output.connection() + " is not an outbound "
                    + kind.name() + " connection");
        }
        return output(kind, connection, key, output, engine, variables);
    }

    private static <O extends OutputConfig, T> PipelineOutput output(OutboundKind<?, O, T> kind,
                                                                     OutboundConnection<?> connection, String key,
                                                                     OutputConfig output, ExpressionEngine engine,
                                                                     Set<String> variables)
            throws ExpressionException {
        StoreForwardChannel<T> channel = connection.channelOf(kind.itemType()).orElseThrow();
        return new ChannelOutput<>(channel, kind.mapper(key, kind.outputType().cast(output), engine, variables));
    }
}
