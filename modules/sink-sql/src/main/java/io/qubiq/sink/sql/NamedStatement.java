package io.qubiq.sink.sql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A SQL statement with named parameters, parsed once into the JDBC form with {@code ?}
 * placeholders. {@code INSERT INTO t(a, b, id) VALUES (:a, :b::int, :item_id)} becomes
 * {@code INSERT INTO t(a, b, id) VALUES (?, ?::int, ?)} with placeholders {@code [a, b, item_id]}.
 *
 * <p>The grammar, as PostgreSQL reads SQL: {@code :name} is a parameter ({@code name} is
 * {@code [A-Za-z_][A-Za-z0-9_]*}, case-sensitive; the same name may appear several times).
 * {@code ::} is a cast and {@code :=} named-argument notation, both kept as written. Nothing inside
 * a string literal ({@code '...'} with {@code ''}, {@code E'...'} with backslash escapes, dollar
 * quotes {@code $tag$...$tag$}), a quoted identifier ({@code "..."}) or a comment ({@code -- ...},
 * nested {@code /* ... *}{@code /}) is a parameter.
 *
 * <p>Rejected with an {@link IllegalArgumentException} that names the offset: a {@code :} followed
 * by anything else (including array slices such as {@code a[1:2]}), a {@code ?} outside quotes
 * (JDBC would take it for a placeholder; use {@code jsonb_exists()} instead of the {@code ?}
 * operator), a positional parameter {@code $1}, an unterminated literal, identifier or comment,
 * and a blank statement.
 *
 * <p>Immutable and thread-safe.
 */
public final class NamedStatement {

    private final String sql;
    private final String jdbcSql;
    private final List<String> placeholders;
    private final List<String> parameterNames;
    private final int[] placeholderHints;

    private NamedStatement(String sql, String jdbcSql, List<String> placeholders) {
        this.sql = sql;
        this.jdbcSql = jdbcSql;
        this.placeholders = List.copyOf(placeholders);
        this.parameterNames = List.copyOf(new LinkedHashSet<>(placeholders));
        List<String> rowParameters = parameterNames.stream().filter(name -> !SqlRow.ITEM_ID.equals(name)).toList();
        this.placeholderHints = placeholders.stream().mapToInt(rowParameters::indexOf).toArray();
    }

    /**
     * Parses a statement with named parameters.
     *
     * @throws IllegalArgumentException when the statement is blank or malformed (see the class doc)
     */
    public static NamedStatement parse(String sql) {
        if (sql == null || sql.isBlank()) {
            throw new IllegalArgumentException("the SQL statement is blank");
        }
        Parser parser = new Parser(sql);
        parser.run();
        return new NamedStatement(sql, parser.out.toString(), parser.names);
    }

    /** The statement as written. */
    public String sql() {
        return sql;
    }

    /** The statement with a {@code ?} for every parameter, for {@code Connection.prepareStatement}. */
    public String jdbcSql() {
        return jdbcSql;
    }

    /** The distinct parameter names, in the order of their first appearance. */
    public List<String> parameterNames() {
        return parameterNames;
    }

    /** The parameter name of each {@code ?} of {@link #jdbcSql}, in order (a name may repeat). */
    public List<String> placeholders() {
        return placeholders;
    }

    /**
     * For each placeholder, where its value sits in a row whose parameters are given in the order
     * the statement first uses them ({@code :item_id} aside): a lookup hint, -1 for {@code :item_id}.
     */
    int[] placeholderHints() {
        return placeholderHints;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NamedStatement n && n.sql.equals(sql);
    }

    @Override
    public int hashCode() {
        return sql.hashCode();
    }

    @Override
    public String toString() {
        return sql;
    }

    /** One pass over the text; not thread-safe, one per parse. */
    private static final class Parser {
        private final String in;
        private final StringBuilder out;
        private final List<String> names = new ArrayList<>();
        private int pos;

        Parser(String in) {
            this.in = in;
            this.out = new StringBuilder(in.length());
        }

        void run() {
            while (pos < in.length()) {
                char c = in.charAt(pos);
                switch (c) {
                    case '\'' -> quoted('\'', backslashEscapes());
                    case '"' -> quoted('"', false);
                    case '-' -> {
                        if (next() == '-') {
                            lineComment();
                        } else {
                            copy(1);
                        }
                    }
                    case '/' -> {
                        if (next() == '*') {
                            blockComment();
                        } else {
                            copy(1);
                        }
                    }
                    case '$' -> dollar();
                    case ':' -> colon();
                    case '?' -> throw malformed(pos, "'?' outside quotes would be a JDBC placeholder; use named"
                            + " parameters (:name), and jsonb_exists() instead of the ? operator");
                    default -> copy(1);
                }
            }
        }

        private char next() {
            return pos + 1 < in.length() ? in.charAt(pos + 1) : '\0';
        }

        private boolean identifierBefore(int at) {
            return at > 0 && (SqlRow.isNamePart(in.charAt(at - 1)) || in.charAt(at - 1) == '$');
        }

        /** E'...' (or e'...'): an escape string, where a backslash escapes the next character. */
        private boolean backslashEscapes() {
            return pos > 0 && (in.charAt(pos - 1) == 'E' || in.charAt(pos - 1) == 'e') && !identifierBefore(pos - 1);
        }

        private void copy(int count) {
            out.append(in, pos, pos + count);
            pos += count;
        }

        private void quoted(char quote, boolean backslash) {
            int start = pos;
            int i = pos + 1;
            while (i < in.length()) {
                char c = in.charAt(i);
                if (backslash && c == '\\') {
                    i += 2;
                } else if (c == quote) {
                    if (i + 1 < in.length() && in.charAt(i + 1) == quote) {
                        i += 2;
                    } else {
                        out.append(in, start, i + 1);
                        pos = i + 1;
                        return;
                    }
                } else {
                    i++;
                }
            }
            throw malformed(start, quote == '"' ? "unterminated quoted identifier" : "unterminated string literal");
        }

        private void lineComment() {
            int end = in.indexOf('\n', pos);
            copy((end < 0 ? in.length() : end) - pos);
        }

        private void blockComment() {
            int start = pos;
            int depth = 0;
            int i = pos;
            while (i < in.length()) {
                if (in.startsWith("/*", i)) {
                    depth++;
                    i += 2;
                } else if (in.startsWith("*/", i)) {
                    depth--;
                    i += 2;
                    if (depth == 0) {
                        copy(i - pos);
                        return;
                    }
                } else {
                    i++;
                }
            }
            throw malformed(start, "unterminated /* comment");
        }

        /** {@code $tag$...$tag$} is a string; {@code $1} a positional parameter; else part of a name. */
        private void dollar() {
            if (identifierBefore(pos)) {
                copy(1);
                return;
            }
            char after = next();
            if (after >= '0' && after <= '9') {
                throw malformed(pos, "positional parameter $" + after + "... is not supported; use named parameters"
                        + " (:name)");
            }
            int tagEnd = pos + 1;
            if (tagEnd < in.length() && SqlRow.isNameStart(in.charAt(tagEnd))) {
                tagEnd++;
                while (tagEnd < in.length() && SqlRow.isNamePart(in.charAt(tagEnd))) {
                    tagEnd++;
                }
            }
            if (tagEnd >= in.length() || in.charAt(tagEnd) != '$') {
                copy(1);
                return;
            }
            String tag = in.substring(pos, tagEnd + 1);
            int close = in.indexOf(tag, tagEnd + 1);
            if (close < 0) {
                throw malformed(pos, "unterminated dollar-quoted string " + tag);
            }
            copy(close + tag.length() - pos);
        }

        private void colon() {
            char after = next();
            if (after == ':' || after == '=') {
                copy(2);
                return;
            }
            if (!SqlRow.isNameStart(after)) {
                throw malformed(pos, "':' is not followed by a parameter name (expected :name, a :: cast or :=)");
            }
            int end = pos + 2;
            while (end < in.length() && SqlRow.isNamePart(in.charAt(end))) {
                end++;
            }
            names.add(in.substring(pos + 1, end));
            out.append('?');
            pos = end;
        }

        private IllegalArgumentException malformed(int at, String problem) {
            int from = Math.max(0, at - 20);
            int to = Math.min(in.length(), at + 20);
            return new IllegalArgumentException("malformed SQL statement at offset " + at + ": " + problem + " (near \""
                    + (from > 0 ? "…" : "") + in.substring(from, to) + (to < in.length() ? "…" : "") + "\")");
        }
    }
}
