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
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkFactory;
import java.time.Clock;
import java.util.Set;

/**
 * QuestDB connections: {@code outbound.<id>.questdb:}, written by the sink of {@code io.qubiq.sink.questdb}.
 * Fresh rows matter more than old ones at the buffer's limit: it drops the oldest.
 */
final class QuestDbKind implements OutboundKind<OutboundConfig.QuestDb, OutputConfig.QuestDb, QuestDbRow> {

    @Override
    public Class<OutboundConfig.QuestDb> configType() {
        return OutboundConfig.QuestDb.class;
    }

    @Override
    public Class<OutputConfig.QuestDb> outputType() {
        return OutputConfig.QuestDb.class;
    }

    @Override
    public Class<QuestDbRow> itemType() {
        return QuestDbRow.class;
    }

    @Override
    public Sink<QuestDbRow> sink(String id, OutboundConfig.QuestDb config, Clock clock)
            throws ConfigurationException {
        return new QuestDbSinkFactory(clock).create(id, config.questdb());
    }

    @Override
    public ItemCodec<QuestDbRow> codec() {
        return new QuestDbSinkFactory().codec();
    }

    @Override
    public OverflowPolicy defaultOverflow() {
        return OverflowPolicy.DROP_OLDEST;
    }

    @Override
    public ItemMapper<QuestDbRow> mapper(String key, OutputConfig.QuestDb output, ExpressionEngine engine,
                                         Set<String> variables) throws ExpressionException {
        return new QuestDbRowMapper(key + ".questdb", output.questdb(), engine, variables);
    }

    @Override
    public String docs() {
        return "docs/sinks/questdb.md";
    }
}
