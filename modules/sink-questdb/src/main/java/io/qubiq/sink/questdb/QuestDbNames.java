package io.qubiq.sink.questdb;

/**
 * QuestDB's rules for table and column names, checked before a row is accepted so that a bad name
 * fails where the row is made, not at the destination. Mirrors the server: no control characters,
 * none of {@code ? , ' " \ / : ( ) + * % ~} (columns also not {@code . -}), no leading or trailing
 * blank, at most {@value #MAX_LENGTH} characters.
 */
final class QuestDbNames {

    static final int MAX_LENGTH = 127;
    private static final String TABLE_FORBIDDEN = "?,'\"\\/:)(+*%~";
    private static final String COLUMN_FORBIDDEN = TABLE_FORBIDDEN + ".-";

    private QuestDbNames() {
    }

    static String requireTable(String name) {
        String problem = problem(name, TABLE_FORBIDDEN);
        if (problem == null && (name.startsWith(".") || name.endsWith(".") || name.contains(".."))) {
            problem = "a dot may not start or end it, nor follow another dot";
        }
        if (problem != null) {
            throw new IllegalArgumentException("invalid QuestDB table name \"" + name + "\": " + problem);
        }
        return name;
    }

    static String requireColumn(String name) {
        String problem = problem(name, COLUMN_FORBIDDEN);
        if (problem != null) {
            throw new IllegalArgumentException("invalid QuestDB column name \"" + name + "\": " + problem);
        }
        return name;
    }

    private static String problem(String name, String forbidden) {
        if (name == null || name.isEmpty()) {
            return "it is empty";
        }
        if (name.length() > MAX_LENGTH) {
            return "longer than " + MAX_LENGTH + " characters";
        }
        if (Character.isWhitespace(name.charAt(0)) || Character.isWhitespace(name.charAt(name.length() - 1))) {
            return "it starts or ends with a blank";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c) || c == '\uFEFF') {
                return "it contains a control character at " + i;
            }
            if (forbidden.indexOf(c) >= 0) {
                return "it contains '" + c + "'";
            }
        }
        return null;
    }
}
