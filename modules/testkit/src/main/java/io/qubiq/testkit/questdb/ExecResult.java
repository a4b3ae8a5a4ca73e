package io.qubiq.testkit.questdb;

import io.qubiq.questdb.exec.SqlResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of one {@code /exec} query: the columns with their QuestDB types and the rows as JSON
 * values (numbers as {@code Long} or {@code Double}, timestamps as ISO-8601 strings such as
 * {@code 2026-01-01T00:00:00.000000Z}, booleans, strings, {@code null}).
 */
public record ExecResult(List<Column> columns, List<List<Object>> rows) {

    /** One result column: its name and QuestDB type ({@code LONG}, {@code SYMBOL}, {@code TIMESTAMP}, ...). */
    public record Column(String name, String type) {
    }

    public ExecResult {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** The same result with the columns' types beside their names (a DDL answer is an empty result). */
    static ExecResult of(SqlResult result) {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < result.columns().size(); i++) {
            columns.add(new Column(result.columns().get(i), result.types().get(i)));
        }
        return new ExecResult(columns, result.rows());
    }

    public int size() {
        return rows.size();
    }

    /** The type of column {@code name}, such as {@code DOUBLE}. */
    public String typeOf(String name) {
        return columns.get(indexOf(name)).type();
    }

    /** The value of column {@code name} in row {@code row}. */
    public Object value(int row, String name) {
        return rows.get(row).get(indexOf(name));
    }

    /** Every row as a column-name-to-value map, in column order. */
    public List<Map<String, Object>> rowMaps() {
        List<Map<String, Object>> maps = new ArrayList<>();
        for (List<Object> row : rows) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                map.put(columns.get(i).name(), row.get(i));
            }
            maps.add(map);
        }
        return maps;
    }

    private int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no column " + name + " in " + columns);
    }
}
