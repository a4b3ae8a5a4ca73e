package io.qubiq.historian.wal;

import io.qubiq.questdb.exec.SqlResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One row of QuestDB's {@code wal_tables()}. */
record WalTableRow(String name, boolean suspended, long writerTxn, long sequencerTxn, String errorTag,
                   String errorMessage) {

    static final String QUERY = "SELECT name, suspended, writerTxn, sequencerTxn, errorTag, errorMessage"
            + " FROM wal_tables()";

    static Map<String, WalTableRow> byName(SqlResult result) {
        Map<String, WalTableRow> rows = new HashMap<>();
        for (List<Object> row : result.rows()) {
            WalTableRow r = new WalTableRow((String) row.get(0), Boolean.TRUE.equals(row.get(1)), number(row.get(2)),
                    number(row.get(3)), text(row.get(4)), text(row.get(5)));
            rows.put(r.name(), r);
        }
        return rows;
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }
}
