package io.qubiq.app.outbound;

import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.config.QuestDbOutputMapping;
import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;
import io.qubiq.sink.questdb.QuestDbRow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A pipeline event as a QuestDB row: table, designated timestamp, symbols and columns. Immutable. */
public final class QuestDbRowMapper implements ItemMapper<QuestDbRow> {

    private final String key;
    private final String table;
    private final Expression timestamp;
    private final Map<String, Expression> symbols;
    private final Map<String, Expression> columns;

    public QuestDbRowMapper(String key, QuestDbOutputMapping mapping, ExpressionEngine engine, Set<String> variables)
            throws ExpressionException {
        this.key = key;
        this.table = mapping.table();
        this.timestamp = engine.compile(mapping.timestamp(), variables);
        this.symbols = Compiled.all(mapping.symbols(), engine, variables);
        this.columns = Compiled.all(mapping.columns(), engine, variables);
    }

    @Override
    public QuestDbRow map(Scope scope, String itemId) throws ExpressionException {
        Object time = timestamp.evaluate(scope);
        if (!(time instanceof Instant instant)) {
            throw new ExpressionException(key + ".timestamp must yield an instant (such as source_time or now), was "
                    + time);
        }
        QuestDbRow.Builder row = QuestDbRow.builder(table, instant);
        for (Map.Entry<String, Expression> symbol : symbols.entrySet()) {
            Object value = symbol.getValue().evaluate(scope);
            if (value != null) {
                row.symbol(symbol.getKey(), String.valueOf(value));
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, Expression> column : columns.entrySet()) {
            Object value = MappedValues.scalar(column.getValue().evaluate(scope), key + ".columns." + column.getKey());
            if (value instanceof java.math.BigDecimal decimal) {
                value = decimal.doubleValue();
            }
            if (value != null) {
                values.put(column.getKey(), value);
            }
        }
        values.forEach(row::column);
        try {
            return row.build();
        } catch (IllegalArgumentException e) {
            throw new ExpressionException(key + ": " + e.getMessage(), e);
        }
    }
}
