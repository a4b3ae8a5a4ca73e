package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.config.ConfigChecked.Violation;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.pipeline.config.OutputConfig;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.sink.sql.NamedStatement;
import io.qubiq.sink.sql.SqlRow;
import io.qubiq.sink.sql.SqlSinkFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SQL connections: {@code outbound.<id>.sql:}, written by the sink of {@code io.qubiq.sink.sql}.
 * Every row counts: at the buffer's limit new items are refused.
 */
final class SqlKind implements OutboundKind<OutboundConfig.Sql, OutputConfig.Sql, SqlRow> {

    @Override
    public Class<OutboundConfig.Sql> configType() {
        return OutboundConfig.Sql.class;
    }

    @Override
    public Class<OutputConfig.Sql> outputType() {
        return OutputConfig.Sql.class;
    }

    @Override
    public Class<SqlRow> itemType() {
        return SqlRow.class;
    }

    @Override
    public Sink<SqlRow> sink(String id, OutboundConfig.Sql config, Clock clock)
            throws ConfigurationException {
        return new SqlSinkFactory(clock).create(id, config.sql());
    }

    @Override
    public ItemCodec<SqlRow> codec() {
        return new SqlSinkFactory().codec();
    }

    @Override
    public OverflowPolicy defaultOverflow() {
        return OverflowPolicy.REFUSE;
    }

    @Override
    public ItemMapper<SqlRow> mapper(String key, OutputConfig.Sql output, ExpressionEngine engine,
                                     Set<String> variables) throws ExpressionException {
        return new SqlRowMapper(key + ".sql", output.sql(), engine, variables);
    }

    /** The statement parses, and its named parameters and the mapping's expressions match one to one. */
    @Override
    public List<Violation> checkOutput(OutputConfig.Sql output) {
        List<Violation> violations = new ArrayList<>();
        NamedStatement statement;
        try {
            statement = NamedStatement.parse(output.sql().statement());
        } catch (IllegalArgumentException e) {
            return List.of(new Violation("sql.statement", e.getMessage()));
        }
        Set<String> needed = new LinkedHashSet<>(statement.parameterNames());
        needed.remove(SqlRow.ITEM_ID);
        Map<String, String> parameters = output.sql().parameters();
        for (String name : needed) {
            if (!parameters.containsKey(name)) {
                violations.add(new Violation("sql.parameters", "the statement uses :" + name
                        + " but parameters has no expression for it"));
            }
        }
        for (String name : parameters.keySet()) {
            if (!needed.contains(name)) {
                violations.add(new Violation("sql.parameters." + name, name.equals(SqlRow.ITEM_ID)
                        ? ":item_id is bound to the event's item id; remove it from parameters"
                        : "the statement has no :" + name));
            }
        }
        return violations;
    }

    @Override
    public String docs() {
        return "docs/sinks/sql.md";
    }
}
