package io.qubiq.pipeline.expr;

import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;

/**
 * The functions a pipeline expression may call, without a prefix: {@code tag('line1/count')},
 * {@code round(value, 2)}. The only code an expression can reach besides operators on its own
 * variables. Every method is a pure function of its arguments, except {@code tag} and
 * {@code tag_quality}, which read the tag bus's latest values. Thread-safe.
 *
 * <p>JEXL calls these by reflection; the sandbox admits this class and nothing else of ours.
 */
public final class Functions {

    /** The names an expression may call; anything else is rejected when the expression compiles. */
    public static final Set<String> NAMES = Set.of("tag", "tag_quality", "round", "abs", "min", "max", "clamp",
            "upper", "lower", "trim", "epoch_ms", "iso", "str", "num");

    /** {@code round(value, digits)} takes digits in -MAX_DIGITS..MAX_DIGITS. */
    static final int MAX_DIGITS = 20;

    private final TagLookup tags;
    private final ExpressionLimits limits;

    public Functions(TagLookup tags) {
        this(tags, ExpressionLimits.DEFAULT);
    }

    public Functions(TagLookup tags, ExpressionLimits limits) {
        this.tags = tags;
        this.limits = limits;
    }

    /** The latest value of a tag, or null when the tag is unknown or has no value. */
    public Object tag(String path) {
        return tags.latest(checkedPath(path)).map(TagValue::value).orElse(null);
    }

    /** The latest quality of a tag as GOOD, UNCERTAIN or BAD, or null when the tag is unknown. */
    public String tag_quality(String path) {
        return tags.latest(checkedPath(path)).map(v -> v.quality().severity().name()).orElse(null);
    }

    public double round(Number value, int digits) {
        if (Math.abs(digits) > MAX_DIGITS) {
            throw new IllegalArgumentException("round: digits must be between -" + MAX_DIGITS + " and " + MAX_DIGITS
                    + ", got " + digits);
        }
        return BigDecimal.valueOf(value.doubleValue()).setScale(digits, RoundingMode.HALF_UP).doubleValue();
    }

    public long round(Number value) {
        return Math.round(value.doubleValue());
    }

    public double abs(Number value) {
        return Math.abs(value.doubleValue());
    }

    public double min(Number a, Number b) {
        return Math.min(a.doubleValue(), b.doubleValue());
    }

    public double max(Number a, Number b) {
        return Math.max(a.doubleValue(), b.doubleValue());
    }

    public double clamp(Number value, Number low, Number high) {
        return Math.max(low.doubleValue(), Math.min(high.doubleValue(), value.doubleValue()));
    }

    public String upper(String text) {
        return text.toUpperCase(Locale.ROOT);
    }

    public String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }

    public String trim(String text) {
        return text.strip();
    }

    public long epoch_ms(Instant time) {
        return time.toEpochMilli();
    }

    public String iso(Instant time) {
        return time.toString();
    }

    /** Any value as text: numbers without a trailing {@code .0} when whole, null as "null". */
    public String str(Object value) {
        if (value instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) {
            return Long.toString(d.longValue());
        }
        if (value instanceof java.util.Collection<?> collection && collection.size() > limits.maxElements()) {
            throw new IllegalArgumentException("str: a collection of " + collection.size() + " elements; at most "
                    + limits.maxElements() + " can be turned into text");
        }
        String text = String.valueOf(value);
        if (text.length() > limits.maxStringChars()) {
            throw new IllegalArgumentException("str: " + text.length() + " characters; at most "
                    + limits.maxStringChars() + " are allowed");
        }
        return text;
    }

    /** Text as a number (a double), for payloads that carry numbers as strings. */
    public double num(Object value) {
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof Boolean bool) {
            return bool ? 1 : 0;
        }
        return Double.parseDouble(String.valueOf(value).strip());
    }

    private static String checkedPath(String path) {
        return TagPath.of(path).value();
    }
}
