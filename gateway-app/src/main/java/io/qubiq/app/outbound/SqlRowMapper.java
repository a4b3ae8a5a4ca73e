package io.qubiq.app.outbound;

import io.qubiq.pipeline.ItemMapper;
import io.qubiq.pipeline.config.SqlOutputMapping;
import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;
import io.qubiq.sink.sql.SqlRow;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A pipeline event as a SQL row: the statement and its named parameters ({@code :item_id} bound by the sink). */
public final class SqlRowMapper implements ItemMapper<SqlRow> {

    private final String key;
    private final String statement;
    private final Map<String, Expression> parameters;

    public SqlRowMapper(String key, SqlOutputMapping mapping, ExpressionEngine engine, Set<String> variables)
            throws ExpressionException {
        this.key = key;
        this.statement = mapping.statement();
        this.parameters = Compiled.all(mapping.parameters(), engine, variables);
    }

    @Override
    public SqlRow map(Scope scope, String itemId) throws ExpressionException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Map.Entry<String, Expression> parameter : parameters.entrySet()) {
            values.put(parameter.getKey(), MappedValues.scalar(parameter.getValue().evaluate(scope),
                    key + ".parameters." + parameter.getKey()));
        }
        try {
            return new SqlRow(itemId, statement, values);
        } catch (IllegalArgumentException e) {
            throw new ExpressionException(key + ": " + e.getMessage(), e);
        }
    }
}
