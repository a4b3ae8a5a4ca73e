package io.qubiq.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * How Java names appear in YAML: record components in snake_case ({@code gracePeriodMs} is
 * {@code grace_period_ms}), enum constants in lower snake_case ({@code DROP_OLDEST} is
 * {@code drop_oldest}), and the "did you mean" suggestion for a misspelt key or value.
 */
final class KeyNames {

    private KeyNames() {
    }

    /** {@code gracePeriodMs} to {@code grace_period_ms}; {@code maxHTTPRetries} to {@code max_http_retries}. */
    static String snakeCase(String camel) {
        StringBuilder out = new StringBuilder(camel.length() + 8);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                boolean afterLowerOrDigit = i > 0 && !Character.isUpperCase(camel.charAt(i - 1));
                boolean endsAcronym = i > 0 && Character.isUpperCase(camel.charAt(i - 1))
                        && i + 1 < camel.length() && Character.isLowerCase(camel.charAt(i + 1));
                if (afterLowerOrDigit || endsAcronym) {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    static String enumValue(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The candidate the user most likely meant, if one is close: the same name in another spelling
     * ({@code gracePeriodMs}, {@code GRACE-PERIOD-MS}) or at most two edits away (one for short names).
     */
    static Optional<String> closest(String written, Collection<String> candidates) {
        String normalized = normalize(written);
        for (String candidate : candidates) {
            if (normalize(candidate).equals(normalized)) {
                return Optional.of(candidate);
            }
        }
        int allowed = written.length() <= 4 ? 1 : 2;
        return candidates.stream()
                .filter(c -> distance(written.toLowerCase(Locale.ROOT), c) <= allowed)
                .min(Comparator.comparingInt((String c) -> distance(written.toLowerCase(Locale.ROOT), c))
                        .thenComparing(Comparator.naturalOrder()));
    }

    private static String normalize(String name) {
        return name.replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
