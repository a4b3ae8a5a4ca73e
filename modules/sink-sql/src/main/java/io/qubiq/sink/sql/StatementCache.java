package io.qubiq.sink.sql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parsed form of the statements a sink has seen, least recently used first out past
 * {@value #CAPACITY}: a pipeline writes a handful of statements over and over, so each is parsed
 * once. Statements that do not parse are not kept.
 *
 * <p>Not thread-safe: owned by the sink's writing thread.
 */
final class StatementCache {

    static final int CAPACITY = 256;

    private final Map<String, NamedStatement> parsed = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, NamedStatement> eldest) {
            return size() > CAPACITY;
        }
    };

    /**
     * @throws IllegalArgumentException when the statement is malformed (see {@link NamedStatement})
     */
    NamedStatement get(String sql) {
        NamedStatement statement = parsed.get(sql);
        if (statement == null) {
            statement = NamedStatement.parse(sql);
            parsed.put(sql, statement);
        }
        return statement;
    }

    int size() {
        return parsed.size();
    }
}
