package io.qubiq.sink.questdb;

/**
 * QuestDB's rules for table and column names, checked before a row is accepted so that a bad name
 * fails where the row is made, not at the destination. Mirrors the server: no control characters,
 * none of {@code ? , ' " \ / : ( ) + * % ~} (columns also not {@code . -}), no leading or trailing
 * blank, at most {@value #MAX_LENGTH} characters.
 *
 * <p>Rows name the same few tables and columns again and again, so a name that passed is
 * remembered in a small direct-mapped cache (one for tables, one for columns: the rules differ) and
 * the next check of an equal name is a hash lookup, or only a reference comparison for the same
 * string instance. A slot holds one name; a colliding name replaces it. Only names that passed are
 * cached, so an invalid name is always checked and refused.
 *
 * <p>Thread-safe: the caches are plain arrays of strings written and read without locks; a racing
 * reader sees either an older name or the newer one (strings are immutable and safely published),
 * and a miss only means checking again.
 */
final class QuestDbNames {

    static final int MAX_LENGTH = 127;
    private static final String TABLE_FORBIDDEN = "?,'\"\\/:)(+*%~";
    private static final String COLUMN_FORBIDDEN = TABLE_FORBIDDEN + ".-";
    private static final int CACHE_SLOTS = 256;
    private static final String[] VALID_TABLES = new String[CACHE_SLOTS];
    private static final String[] VALID_COLUMNS = new String[CACHE_SLOTS];

    private QuestDbNames() {
    }

    static String requireTable(String name) {
        if (cached(VALID_TABLES, name)) {
            return name;
        }
        String problem = problem(name, TABLE_FORBIDDEN);
        if (problem == null && (name.startsWith(".") || name.endsWith(".") || name.contains(".."))) {
            problem = "a dot may not start or end it, nor follow another dot";
        }
        if (problem != null) {
            throw new IllegalArgumentException("invalid QuestDB table name \"" + name + "\": " + problem);
        }
        remember(VALID_TABLES, name);
        return name;
    }

    static String requireColumn(String name) {
        if (cached(VALID_COLUMNS, name)) {
            return name;
        }
        String problem = problem(name, COLUMN_FORBIDDEN);
        if (problem != null) {
            throw new IllegalArgumentException("invalid QuestDB column name \"" + name + "\": " + problem);
        }
        remember(VALID_COLUMNS, name);
        return name;
    }

    private static boolean cached(String[] cache, String name) {
        if (name == null) {
            return false;
        }
        String known = cache[slot(name)];
        return known == name || name.equals(known);
    }

    private static void remember(String[] cache, String name) {
        cache[slot(name)] = name;
    }

    private static int slot(String name) {
        int h = name.hashCode();
        return (h ^ (h >>> 16)) & (CACHE_SLOTS - 1);
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
