package io.qubiq.questdb.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The answer of one {@code /exec} statement: column names, their QuestDB types ({@code LONG},
 * {@code SYMBOL}, {@code TIMESTAMP}, ...; {@code types.get(i)} is the type of {@code
 * columns.get(i)}) and rows of JSON values (numbers as {@code Long} or {@code Double}, timestamps as
 * ISO-8601 text, booleans, strings, nulls). A DDL statement answers with no columns and no rows.
 * Immutable.
 */
public record SqlResult(List<String> columns, List<String> types, List<List<Object>> rows) {

    public SqlResult {
        columns = List.copyOf(columns);
        types = List.copyOf(types);
        rows = List.copyOf(rows);
        if (types.size() != columns.size()) {
            throw new IllegalArgumentException(columns.size() + " columns but " + types.size() + " types");
        }
    }

    /** The result in a successful {@code /exec} answer, as {@link Json} read it. */
    public static SqlResult of(Map<?, ?> answer) {
        List<String> columns = new ArrayList<>();
        List<String> types = new ArrayList<>();
        if (answer.get("columns") instanceof List<?> list) {
            for (Object column : list) {
                columns.add(String.valueOf(((Map<?, ?>) column).get("name")));
                types.add(String.valueOf(((Map<?, ?>) column).get("type")));
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        if (answer.get("dataset") instanceof List<?> dataset) {
            for (Object row : dataset) {
                rows.add(Collections.unmodifiableList(new ArrayList<>((List<?>) row)));
            }
        }
        return new SqlResult(columns, types, rows);
    }

    public int indexOf(String column) {
        int i = columns.indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("no column " + column + " in " + columns);
        }
        return i;
    }
}
