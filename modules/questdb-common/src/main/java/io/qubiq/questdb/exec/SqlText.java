package io.qubiq.questdb.exec;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * Literals and identifiers for SQL sent to {@code /exec}, which has no bind parameters. A string
 * literal doubles its quotes and refuses control characters; an identifier must be a plain name
 * ({@code [A-Za-z_][A-Za-z0-9_]*}); a timestamp is rendered by the gateway from an {@link Instant}
 * in microseconds, never taken from user text. Stateless.
 */
public final class SqlText {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,126}");
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private SqlText() {
    }

    /** {@code 'text'} with single quotes doubled. */
    public static String literal(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                throw new IllegalArgumentException("control character in SQL literal at " + i);
            }
        }
        return "'" + text.replace("'", "''") + "'";
    }

    /** A timestamp literal, such as {@code '2026-01-01T00:00:00.000000Z'}. */
    public static String timestamp(Instant time) {
        return "'" + MICROS.format(time) + "'";
    }

    /** {@code name} itself, when it is a plain identifier. */
    public static String identifier(String name) {
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("\"" + name + "\" is not a plain SQL identifier ([A-Za-z_][A-Za-z0-9_]*)");
        }
        return name;
    }

    public static boolean isIdentifier(String name) {
        return IDENTIFIER.matcher(name).matches();
    }
}
