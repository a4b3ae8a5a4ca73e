package io.qubiq.config;

import io.qubiq.config.ConfigType.EnumType;
import io.qubiq.config.ConfigType.ScalarType;
import io.qubiq.core.config.Range;
import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads one scalar's text as the declared type, strictly. Integers are plain decimal digits
 * without leading zeros (YAML 1.1 reads {@code 0644} as octal; no hex, no {@code 1_000});
 * numbers add a fraction and exponent; booleans are exactly {@code true} or {@code false}; enum
 * values are the constants in lower snake_case. Numbers and booleans must be written plain: a quoted
 * {@code "8080"} is a string, not a port. Strings, paths and enum values may be quoted or not, so a
 * string key given a bare {@code yes} keeps the text "yes". Stateless.
 */
final class ScalarParser {

    /** A scalar ready for typing: text after environment expansion. */
    record Text(String value, boolean plain, boolean expanded, boolean secret) {

        /** Numbers and booleans need plain text or text that came from the environment. */
        boolean typedLiteral() {
            return plain || expanded;
        }

        /** How messages show the value: quoted, shortened, and never for a secret. */
        String shown() {
            if (secret) {
                return "***";
            }
            String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
            return "\"" + (escaped.length() > 60 ? escaped.substring(0, 57) + "..." : escaped) + "\"";
        }
    }

    /** Either the value or a message saying what was expected. */
    record Result(Optional<Object> value, String problem) {
        static Result of(Object value) {
            return new Result(Optional.of(value), "");
        }

        static Result problem(String message) {
            return new Result(Optional.empty(), message);
        }
    }

    private static final Pattern INTEGER = Pattern.compile("[-+]?(0|[1-9][0-9]*)");
    private static final Pattern LEADING_ZERO = Pattern.compile("[-+]?0[0-9]+");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");
    private static final Set<String> YAML_11_BOOLEANS = Set.of("yes", "no", "on", "off", "y", "n",
            "Yes", "No", "On", "Off", "YES", "NO", "ON", "OFF", "True", "False", "TRUE", "FALSE");

    private ScalarParser() {
    }

    static Result parse(Text text, ConfigType type, Optional<Range> range) {
        if (type instanceof EnumType e) {
            return enumValue(text, e);
        }
        return switch (((ScalarType) type).kind()) {
            case STRING -> Result.of(text.value());
            case PATH -> path(text);
            case BOOLEAN -> bool(text);
            case INT -> integer(text, range, Integer.MIN_VALUE, Integer.MAX_VALUE, true);
            case LONG -> integer(text, range, Long.MIN_VALUE, Long.MAX_VALUE, false);
            case DOUBLE -> decimal(text, range);
        };
    }

    /** "an integer between 1 and 65535", "a number of at least 0", "a string". */
    static String expectation(ConfigType.ScalarKind kind, Optional<Range> range) {
        return switch (kind) {
            case INT -> "an integer" + bounds(range.isPresent(), Math.max(Integer.MIN_VALUE, range.map(Range::min).orElse(0L)),
                    Math.min(Integer.MAX_VALUE, range.map(Range::max).orElse(0L)), Integer.MIN_VALUE, Integer.MAX_VALUE);
            case LONG -> "an integer" + bounds(range.isPresent(), range.map(Range::min).orElse(0L),
                    range.map(Range::max).orElse(0L), Long.MIN_VALUE, Long.MAX_VALUE);
            case DOUBLE -> "a number" + bounds(range.isPresent(), range.map(Range::min).orElse(0L),
                    range.map(Range::max).orElse(0L), Long.MIN_VALUE, Long.MAX_VALUE);
            default -> ConfigType.expectation(new ScalarType(kind));
        };
    }

    private static Result integer(Text text, Optional<Range> range, long typeMin, long typeMax, boolean asInt) {
        long min = Math.max(typeMin, range.map(Range::min).orElse(typeMin));
        long max = Math.min(typeMax, range.map(Range::max).orElse(typeMax));
        String expected = "expected an integer" + bounds(range.isPresent(), min, max, typeMin, typeMax);
        String value = text.value().trim();
        if (LEADING_ZERO.matcher(value).matches()) {
            return Result.problem(expected + ", got " + text.shown()
                    + " (a leading zero means octal to some YAML readers; write the number without it)");
        }
        if (!INTEGER.matcher(value).matches()) {
            return Result.problem(expected + ", got " + text.shown());
        }
        if (!text.typedLiteral()) {
            return Result.problem(expected + ", got the quoted string " + text.shown() + " (write numbers without quotes)");
        }
        BigInteger number = new BigInteger(value);
        if (number.compareTo(BigInteger.valueOf(min)) < 0 || number.compareTo(BigInteger.valueOf(max)) > 0) {
            String within = "expected an integer" + bounds(true, min, max, typeMin, typeMax);
            return Result.problem(within + ", got " + (text.secret() ? "***" : number.toString()));
        }
        return Result.of(asInt ? (Object) number.intValueExact() : (Object) number.longValueExact());
    }

    private static String bounds(boolean explicit, long min, long max, long typeMin, long typeMax) {
        if (!explicit) {
            return "";
        }
        if (min > typeMin && max < typeMax) {
            return " between " + min + " and " + max;
        }
        if (min > typeMin) {
            return " of at least " + min;
        }
        if (max < typeMax) {
            return " of at most " + max;
        }
        return " between " + min + " and " + max;
    }

    private static Result decimal(Text text, Optional<Range> range) {
        String expected = "expected a number" + range.map(r -> bounds(true, r.min(), r.max(), Long.MIN_VALUE, Long.MAX_VALUE))
                .orElse("");
        String value = text.value().trim();
        if (!DECIMAL.matcher(value).matches()) {
            return Result.problem(expected + ", got " + text.shown());
        }
        if (!text.typedLiteral()) {
            return Result.problem(expected + ", got the quoted string " + text.shown() + " (write numbers without quotes)");
        }
        double number = Double.parseDouble(value);
        if (Double.isInfinite(number) || range.isPresent()
                && (number < range.get().min() || number > range.get().max())) {
            return Result.problem(expected + ", got " + (text.secret() ? "***" : value));
        }
        return Result.of(number);
    }

    private static Result bool(Text text) {
        String value = text.value().trim();
        if ((value.equals("true") || value.equals("false")) && text.typedLiteral()) {
            return Result.of(Boolean.valueOf(value));
        }
        String problem = "expected true or false, got " + text.shown();
        if (!text.typedLiteral() && (value.equals("true") || value.equals("false"))) {
            return Result.problem(problem + " (write booleans without quotes)");
        }
        if (YAML_11_BOOLEANS.contains(value)) {
            return Result.problem(problem + " (only true and false are booleans here)");
        }
        return Result.problem(problem);
    }

    private static Result enumValue(Text text, EnumType type) {
        Optional<Object> constant = Arrays.<Object>stream(type.type().getEnumConstants())
                .filter(c -> KeyNames.enumValue((Enum<?>) c).equals(text.value()))
                .findFirst();
        if (constant.isPresent()) {
            return Result.of(constant.get());
        }
        String problem = "expected " + ConfigType.expectation(type) + ", got " + text.shown();
        return Result.problem(text.secret() ? problem : KeyNames.closest(text.value(), type.values())
                .map(s -> problem + " (did you mean `" + s + "`?)").orElse(problem));
    }

    private static Result path(Text text) {
        if (text.value().isBlank()) {
            return Result.problem("expected a file path, got an empty string");
        }
        try {
            return Result.of(Path.of(text.value()));
        } catch (InvalidPathException e) {
            return Result.problem("expected a file path, got " + text.shown() + ": " + e.getReason());
        }
    }
}
