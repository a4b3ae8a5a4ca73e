package io.qubiq.core.connector;

import io.qubiq.core.tag.TagPath;
import java.util.Optional;

/**
 * The optional lowest and highest value a writable tag accepts (issue 23 item 14): the one place that
 * decides whether a write's value is inside them, for every connector, before anything is sent.
 * With neither limit every value passes, as before. With a limit, the value must be a number (a
 * {@link Number}, or text that reads as one, as the console may send it) within the limits, both
 * inclusive; anything else is refused with a {@link WriteLimitException} naming the tag, the value and
 * the limits. Immutable.
 *
 * @param min the lowest value accepted; empty: no lower limit
 * @param max the highest value accepted; empty: no upper limit
 */
public record WriteLimits(Optional<Double> min, Optional<Double> max) {

    /** No limits: every value passes. */
    public static final WriteLimits NONE = new WriteLimits(Optional.empty(), Optional.empty());

    /** Whether any limit is set. */
    public boolean any() {
        return min.isPresent() || max.isPresent();
    }

    /**
     * What is wrong with the limits themselves, for configuration checks: a limit that is not finite, or
     * a minimum above the maximum.
     */
    public Optional<String> problem() {
        if (min.isPresent() && !Double.isFinite(min.get()) || max.isPresent() && !Double.isFinite(max.get())) {
            return Optional.of("limits must be finite numbers");
        }
        if (min.isPresent() && max.isPresent() && min.get() > max.get()) {
            return Optional.of("the minimum " + text(min.get()) + " is above the maximum " + text(max.get()));
        }
        return Optional.empty();
    }

    /**
     * Passes when {@code value} may be written to {@code tag}.
     *
     * @throws WriteLimitException when it is not a number although limits are set, or is outside them
     */
    public void check(TagPath tag, Object value) {
        if (!any()) {
            return;
        }
        Optional<Double> number = numberOf(value);
        if (number.isEmpty()) {
            throw new WriteLimitException("tag " + tag + " accepts only numbers " + describe() + ": the value "
                    + quoted(value) + " is not a number; nothing was sent");
        }
        double v = number.get();
        if (min.isPresent() && v < min.get() || max.isPresent() && v > max.get()) {
            throw new WriteLimitException("tag " + tag + " accepts values " + describe() + ": the value "
                    + quoted(value) + " is outside; nothing was sent");
        }
    }

    /** The limits in words, such as {@code from 0 to 5 (min 0, max 5)}. */
    public String describe() {
        if (min.isPresent() && max.isPresent()) {
            return "from " + text(min.get()) + " to " + text(max.get()) + " (min " + text(min.get()) + ", max "
                    + text(max.get()) + ")";
        }
        return min.map(m -> "of at least " + text(m) + " (min " + text(m) + ")")
                .orElseGet(() -> max.map(m -> "of at most " + text(m) + " (max " + text(m) + ")").orElse("of any kind"));
    }

    private static Optional<Double> numberOf(Object value) {
        if (value instanceof Number n) {
            double d = n.doubleValue();
            return Double.isFinite(d) ? Optional.of(d) : Optional.empty();
        }
        if (value instanceof String s) {
            try {
                double d = Double.parseDouble(s.strip());
                return Double.isFinite(d) ? Optional.of(d) : Optional.empty();
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The value for a message: text in quotes with line breaks escaped (a value never forges a log line). */
    private static String quoted(Object value) {
        String text = String.valueOf(value).replace("\r", "\\r").replace("\n", "\\n");
        if (text.length() > 80) {
            text = text.substring(0, 80) + "...";
        }
        return value instanceof String ? "\"" + text + "\"" : text;
    }

    private static String text(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
