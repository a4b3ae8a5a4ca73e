package io.qubiq.core.text;

/**
 * User-supplied text made safe for one log line: a value typed by an operator or sent by a device (a tag
 * write, a name, a device's error message) cannot start a forged line or hide in the terminal.
 * <ul>
 *   <li>{@code \n}, {@code \r} and {@code \t} become {@code \\n}, {@code \\r}, {@code \\t};</li>
 *   <li>every other control character (C0, DEL, C1), the Unicode line and paragraph separators and the
 *       bidirectional overrides and isolates become {@code \\uXXXX};</li>
 *   <li>a backslash becomes {@code \\\\}, so an escape in the log always means the character was there,
 *       never that someone typed the escape.</li>
 * </ul>
 * Everything else, including non-ASCII letters, is kept as it is. Stateless; safe from any thread.
 */
public final class LogSafe {

    private LogSafe() {
    }

    /** {@code value} ({@link String#valueOf} of it) with the characters above escaped; "null" for null. */
    public static String text(Object value) {
        String text = String.valueOf(value);
        int i = 0;
        while (i < text.length() && !needsEscape(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (needsEscape(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    private static boolean needsEscape(char c) {
        return c == '\\' || Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }
}
