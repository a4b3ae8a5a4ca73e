package io.qubiq.app.pipelines;

import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.pipeline.ChannelOutput;
import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.PipelineOutput;
import io.qubiq.pipeline.Pipelines;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.storeforward.StoreForwardChannel;
import java.util.Map;
import java.util.Set;

/**
 * Builds each pipeline output for its outbound connection: the mapper for the connection's item
 * type, wired to the connection's store-and-forward channel. The configuration has already been
 * checked (the connection exists and is of the mapping's kind); this re-checks and names the key.
 */
public final class PipelineOutputs implements Pipelines.OutputFactory {

    private final Map<String, OutboundConnection<?>> connections;

    public PipelineOutputs(Map<String, OutboundConnection<?>> connections) {
        this.connections = Map.copyOf(connections);
    }

    @Override
    public PipelineOutput create(String pipelineId, int index, OutputConfig output, Set<String> variables,
                                 ExpressionEngine engine) throws Exception {
        String key = "pipelines." + pipelineId + ".outputs[" + index + "]";
        OutboundConnection<?> connection = connections.get(output.connection());
        if (connection == null || !connection.kind().equals(output.kind())) {
            throw new IllegalArgumentException(key + ": connection " + output.connection() + " is not an outbound "
                    + output.kind() + " connection");
        }
        return switch (output.kind()) {
            case "questdb" -> output(connection, new QuestDbRowMapper(key + ".questdb", output.questdb().orElseThrow(),
                    engine, variables));
            case "sql" -> output(connection, new SqlRowMapper(key + ".sql", output.sql().orElseThrow(), engine,
                    variables));
            case "mongodb" -> output(connection, new MongoDocumentMapper(key + ".mongodb",
                    output.mongodb().orElseThrow(), engine, variables));
            default -> output(connection, new MqttMessageMapper(key + ".mqtt", output.mqtt().orElseThrow(), engine,
                    variables));
        };
    }

    /** The kinds match (checked above), so the channel carries the mapper's item type. */
    @SuppressWarnings("unchecked")
    private static <T> PipelineOutput output(OutboundConnection<?> connection, ItemMapper<T> mapper) {
        return new ChannelOutput<>((StoreForwardChannel<T>) connection.channel(), mapper);
    }
}
