package io.qubiq.historian.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The answer of one {@code /exec} statement: column names and rows of JSON values (numbers as
 * {@code Long} or {@code Double}, timestamps as ISO-8601 text, booleans, strings, nulls). A DDL
 * statement answers with no columns and no rows. Immutable.
 */
public record SqlResult(List<String> columns, List<List<Object>> rows) {

    public SqlResult {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    static SqlResult of(Map<?, ?> answer) {
        List<String> columns = new ArrayList<>();
        if (answer.get("columns") instanceof List<?> list) {
            for (Object column : list) {
                columns.add(String.valueOf(((Map<?, ?>) column).get("name")));
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        if (answer.get("dataset") instanceof List<?> dataset) {
            for (Object row : dataset) {
                rows.add(Collections.unmodifiableList(new ArrayList<>((List<?>) row)));
            }
        }
        return new SqlResult(columns, rows);
    }

    public int indexOf(String column) {
        int i = columns.indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("no column " + column + " in " + columns);
        }
        return i;
    }
}
