package io.qubiq.app.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A list of configuration sections (a connection's tags) as CSV and back, RFC 4180: a header row of key
 * names, one row per section; nested keys are dotted columns ({@code scale.raw_low}); an empty cell is a key
 * left out. Cells read back typed as the file would hold them: {@code true}/{@code false} as booleans,
 * decimal numbers as numbers, everything else as text (the configuration's own checks then say what a key
 * accepts). Quoted cells may hold commas, quotes ({@code ""}) and line breaks; CRLF and LF both end a row;
 * blank rows are skipped.
 *
 * <p>Stateless.
 */
final class TagCsv {

    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,17})");
    private static final Pattern DECIMAL = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

    /** A row that cannot be read, with its line (1 is the header). */
    static final class CsvException extends Exception {
        private final int line;

        CsvException(int line, String message) {
            super("line " + line + ": " + message);
            this.line = line;
        }

        int line() {
            return line;
        }
    }

    /** One data row: the line it starts on, and its cells by column name (empty cells left out). */
    record Row(int line, Map<String, String> cells) {
    }

    private TagCsv() {
    }

    /** The sections as CSV: the columns in the order the keys first appear. */
    static String render(List<Map<String, Object>> sections) {
        List<Map<String, String>> rows = new ArrayList<>();
        Set<String> columns = new LinkedHashSet<>();
        for (Map<String, Object> section : sections) {
            Map<String, String> row = new LinkedHashMap<>();
            flatten("", section, row);
            columns.addAll(row.keySet());
            rows.add(row);
        }
        StringBuilder out = new StringBuilder();
        out.append(String.join(",", columns.stream().map(TagCsv::cell).toList())).append("\r\n");
        for (Map<String, String> row : rows) {
            out.append(String.join(",", columns.stream().map(c -> cell(row.getOrDefault(c, ""))).toList()))
                    .append("\r\n");
        }
        return out.toString();
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out) {
        map.forEach((key, value) -> {
            String name = prefix + key;
            if (value instanceof Map<?, ?> nested) {
                flatten(name + ".", nested, out);
            } else if (value != null) {
                out.put(name, text(value));
            }
        });
    }

    private static String text(Object value) {
        if (value instanceof Double || value instanceof Float) {
            return BigDecimal.valueOf(((Number) value).doubleValue()).stripTrailingZeros().toPlainString();
        }
        return String.valueOf(value);
    }

    private static String cell(String text) {
        boolean quote = text.isEmpty() ? false : text.chars().anyMatch(c -> c == ',' || c == '"' || c == '\r'
                || c == '\n') || !text.strip().equals(text);
        return quote ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    /**
     * The data rows of {@code csv}.
     *
     * @throws CsvException no header, an empty or repeated column name, a row with more cells than the
     *     header, or a quote that is not closed
     */
    static List<Row> parse(String csv) throws CsvException {
        List<List<String>> records = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int line = 1;
        int recordLine = 1;
        boolean quoted = false;
        boolean fieldStarted = false;
        int i = 0;
        String text = csv.startsWith("\uFEFF") ? csv.substring(1) : csv;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i += 2;
                    continue;
                }
                if (c == '"') {
                    quoted = false;
                } else {
                    if (c == '\n') {
                        line++;
                    }
                    field.append(c);
                }
                i++;
                continue;
            }
            if (c == '"' && field.isEmpty() && !fieldStarted) {
                quoted = true;
                fieldStarted = true;
            } else if (c == ',') {
                record.add(field.toString());
                field.setLength(0);
                fieldStarted = false;
            } else if (c == '\r' || c == '\n') {
                record.add(field.toString());
                field.setLength(0);
                fieldStarted = false;
                if (!(record.size() == 1 && record.get(0).isEmpty())) {
                    records.add(record);
                    lines.add(recordLine);
                }
                record = new ArrayList<>();
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                line++;
                recordLine = line;
            } else {
                field.append(c);
                fieldStarted = true;
            }
            i++;
        }
        if (quoted) {
            throw new CsvException(recordLine, "a quoted cell is not closed by \"");
        }
        record.add(field.toString());
        if (!(record.size() == 1 && record.get(0).isEmpty())) {
            records.add(record);
            lines.add(recordLine);
        }
        if (records.isEmpty()) {
            throw new CsvException(1, "the table is empty: the first row names the columns (path,node_id,...)");
        }
        List<String> header = records.get(0).stream().map(String::strip).toList();
        Set<String> seen = new LinkedHashSet<>();
        for (String name : header) {
            if (name.isEmpty()) {
                throw new CsvException(lines.get(0), "a column has no name in the header row");
            }
            if (!seen.add(name)) {
                throw new CsvException(lines.get(0), "column '" + name + "' appears twice in the header row");
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int r = 1; r < records.size(); r++) {
            List<String> cells = records.get(r);
            if (cells.size() > header.size()) {
                throw new CsvException(lines.get(r), "the row has " + cells.size() + " cells but the header names "
                        + header.size() + " columns");
            }
            Map<String, String> named = new LinkedHashMap<>();
            for (int c = 0; c < cells.size(); c++) {
                if (!cells.get(c).isEmpty()) {
                    named.put(header.get(c), cells.get(c));
                }
            }
            rows.add(new Row(lines.get(r), named));
        }
        return rows;
    }

    /** A row as a configuration section: dotted columns nested, cells typed (see the class doc). */
    static Map<String, Object> section(Row row) {
        Map<String, Object> section = new LinkedHashMap<>();
        row.cells().forEach((column, cell) -> {
            Map<String, Object> at = section;
            String[] keys = column.split("\\.");
            for (int k = 0; k < keys.length - 1; k++) {
                Object next = at.computeIfAbsent(keys[k], key -> new LinkedHashMap<String, Object>());
                if (!(next instanceof Map<?, ?>)) {
                    next = new LinkedHashMap<String, Object>();
                    at.put(keys[k], next);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> nested = (Map<String, Object>) next;
                at = nested;
            }
            at.put(keys[keys.length - 1], typed(cell));
        });
        return section;
    }

    static Object typed(String cell) {
        if (cell.equals("true") || cell.equals("false")) {
            return Boolean.valueOf(cell);
        }
        if (INTEGER.matcher(cell).matches()) {
            return Long.valueOf(cell);
        }
        if (DECIMAL.matcher(cell).matches()) {
            return Double.valueOf(cell);
        }
        return cell;
    }
}
