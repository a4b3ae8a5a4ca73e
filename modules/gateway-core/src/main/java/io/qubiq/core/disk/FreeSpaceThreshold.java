package io.qubiq.core.disk;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A free-space threshold as an operator writes it: a percentage of the file system ({@code "10%"},
 * {@code "2.5%"}) or a size ({@code "2GiB"}, {@code "500MB"}, {@code "1048576"} bytes). Sizes take the
 * units B, KB, MB, GB, TB (powers of 1000) and KiB, MiB, GiB, TiB (powers of 1024).
 *
 * @param text the value as written, for messages
 * @param percent the percentage, when given as one
 * @param bytes the size in bytes, when given as one
 */
public record FreeSpaceThreshold(String text, Optional<Double> percent, Optional<Long> bytes) {

    private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*%");
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]i?B|B)?", Pattern.CASE_INSENSITIVE);

    /** What a value must look like, for validation messages. */
    public static final String EXPECTED = "a percentage such as \"10%\" or a size such as \"2GiB\" or \"500MB\"";

    /**
     * Reads {@code text}.
     *
     * @throws IllegalArgumentException it is neither a percentage between 0 and 100 nor a size;
     *     the message says what was expected
     */
    public static FreeSpaceThreshold parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        Matcher percent = PERCENT.matcher(trimmed);
        if (percent.matches()) {
            double value = Double.parseDouble(percent.group(1));
            if (value > 100) {
                throw new IllegalArgumentException("expected a percentage between 0 and 100, got \"" + text + "\"");
            }
            return new FreeSpaceThreshold(trimmed, Optional.of(value), Optional.empty());
        }
        Matcher size = SIZE.matcher(trimmed);
        if (size.matches()) {
            double number = Double.parseDouble(size.group(1));
            double bytes = number * multiplier(size.group(2));
            if (bytes >= Long.MAX_VALUE) {
                throw new IllegalArgumentException("expected " + EXPECTED + ", got \"" + text + "\" (too large)");
            }
            return new FreeSpaceThreshold(trimmed, Optional.empty(), Optional.of((long) bytes));
        }
        throw new IllegalArgumentException("expected " + EXPECTED + ", got \"" + text + "\"");
    }

    private static double multiplier(String unit) {
        if (unit == null) {
            return 1;
        }
        return switch (unit.toUpperCase(Locale.ROOT)) {
            case "B" -> 1;
            case "KB" -> 1e3;
            case "MB" -> 1e6;
            case "GB" -> 1e9;
            case "TB" -> 1e12;
            case "KIB" -> 1024.0;
            case "MIB" -> 1024.0 * 1024;
            case "GIB" -> 1024.0 * 1024 * 1024;
            case "TIB" -> 1024.0 * 1024 * 1024 * 1024;
            default -> throw new IllegalArgumentException("unknown unit " + unit);
        };
    }

    /** This threshold in bytes on a file system of {@code totalBytes}. */
    public long bytesOf(long totalBytes) {
        return bytes.orElseGet(() -> (long) Math.ceil(totalBytes * percent.orElseThrow() / 100.0));
    }

    /** True when {@code space} has less than this free. */
    public boolean reached(DiskSpace space) {
        return space.freeBytes() < bytesOf(space.totalBytes());
    }

    @Override
    public String toString() {
        return text;
    }
}
