package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.sink.mongodb.MongoDocument;
import io.qubiq.sink.mongodb.MongoSinkFactory;
import java.time.Clock;
import java.util.Set;

/**
 * MongoDB connections: {@code outbound.<id>.mongodb:}, written by the sink of {@code io.qubiq.sink.mongodb}.
 * Every document counts: at the buffer's limit new items are refused.
 */
final class MongoDbKind implements OutboundKind<OutboundConfig.MongoDb, OutputConfig.MongoDb, MongoDocument> {

    @Override
    public Class<OutboundConfig.MongoDb> configType() {
        return OutboundConfig.MongoDb.class;
    }

    @Override
    public Class<OutputConfig.MongoDb> outputType() {
        return OutputConfig.MongoDb.class;
    }

    @Override
    public Class<MongoDocument> itemType() {
        return MongoDocument.class;
    }

    @Override
    public Sink<MongoDocument> sink(String id, OutboundConfig.MongoDb config, Clock clock)
            throws ConfigurationException {
        return new MongoSinkFactory(clock).create(id, config.mongodb());
    }

    @Override
    public ItemCodec<MongoDocument> codec() {
        return new MongoSinkFactory().codec();
    }

    @Override
    public OverflowPolicy defaultOverflow() {
        return OverflowPolicy.REFUSE;
    }

    @Override
    public ItemMapper<MongoDocument> mapper(String key, OutputConfig.MongoDb output, ExpressionEngine engine,
                                            Set<String> variables) throws ExpressionException {
        return new MongoDocumentMapper(key + ".mongodb", output.mongodb(), engine, variables);
    }

    @Override
    public String docs() {
        return "docs/sinks/mongodb.md";
    }
}
