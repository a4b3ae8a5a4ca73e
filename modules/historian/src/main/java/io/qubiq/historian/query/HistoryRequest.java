package io.qubiq.historian.query;

import io.qubiq.core.tag.TagPath;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One history query: raw samples, or one aggregate per interval, of several tags over
 * {@code from <= ts < to}. {@code interval} and {@code aggregation} go together.
 */
public record HistoryRequest(List<TagPath> tags, Instant from, Instant to, Optional<Duration> interval,
                             Optional<Aggregation> aggregation) {

    /** Most tags in one request. */
    public static final int MAX_TAGS = 100;
    private static final Pattern INTERVAL = Pattern.compile("([1-9][0-9]{0,8})(ms|s|m|h|d)");

    public HistoryRequest {
        tags = List.copyOf(tags);
        if (tags.isEmpty()) {
            throw new HistoryRequestException("tags", "at least one tag is required");
        }
        if (!from.isBefore(to)) {
            throw new HistoryRequestException("to", "must be after from (" + from + "), was " + to);
        }
        if (interval.isPresent() != aggregation.isPresent()) {
            throw new HistoryRequestException(interval.isPresent() ? "agg" : "interval",
                    "interval and agg go together: give both for aggregates, neither for raw samples");
        }
    }

    public static HistoryRequest raw(List<TagPath> tags, Instant from, Instant to) {
        return new HistoryRequest(tags, from, to, Optional.empty(), Optional.empty());
    }

    public static HistoryRequest aggregate(List<TagPath> tags, Instant from, Instant to, Duration interval,
                                           Aggregation aggregation) {
        return new HistoryRequest(tags, from, to, Optional.of(interval), Optional.of(aggregation));
    }

    /**
     * Reads the query parameters of {@code GET /api/v1/history}: {@code tags} (comma-separated,
     * repeatable), {@code from} and {@code to} (ISO-8601 instants, such as
     * {@code 2026-01-01T00:00:00Z}), and optionally {@code interval} ({@code 500ms}, {@code 10s},
     * {@code 1m}, {@code 1h}, {@code 1d}) with {@code agg} ({@code avg}, {@code min}, {@code max},
     * {@code first}, {@code last}, {@code count}). Other parameters are ignored.
     *
     * @throws HistoryRequestException naming the first offending parameter
     */
    public static HistoryRequest parse(Map<String, List<String>> params) {
        Set<TagPath> tags = new LinkedHashSet<>();
        for (String value : params.getOrDefault("tags", List.of())) {
            for (String part : value.split(",", -1)) {
                String tag = part.trim();
                Optional<String> problem = TagPath.validate(tag);
                if (problem.isPresent()) {
                    throw new HistoryRequestException("tags", "\"" + tag + "\" is not a tag path: " + problem.get());
                }
                tags.add(TagPath.of(tag));
            }
        }
        if (tags.isEmpty()) {
            throw new HistoryRequestException("tags", "required: one or more tag paths, comma-separated");
        }
        if (tags.size() > MAX_TAGS) {
            throw new HistoryRequestException("tags", "at most " + MAX_TAGS + " tags per request, got " + tags.size());
        }
        Instant from = instant(params, "from");
        Instant to = instant(params, "to");
        Optional<Duration> interval = single(params, "interval").map(HistoryRequest::interval);
        Optional<Aggregation> agg = single(params, "agg").map(text -> Aggregation.parse(text).orElseThrow(
                () -> new HistoryRequestException("agg", "unknown aggregation \"" + text
                        + "\"; expected one of avg, min, max, first, last, count")));
        return new HistoryRequest(new ArrayList<>(tags), from, to, interval, agg);
    }

    /** {@code 500ms}, {@code 10s}, {@code 1m}, {@code 2h}, {@code 1d}. */
    public static Duration interval(String text) {
        Matcher m = INTERVAL.matcher(text.trim());
        if (!m.matches()) {
            throw new HistoryRequestException("interval", "\"" + text + "\" is not an interval; expected a positive"
                    + " number and a unit ms, s, m, h or d, such as 10s or 1m");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    private static Instant instant(Map<String, List<String>> params, String name) {
        String text = single(params, name).orElseThrow(() -> new HistoryRequestException(name,
                "required: an ISO-8601 instant such as 2026-01-01T00:00:00Z"));
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new HistoryRequestException(name, "\"" + text + "\" is not an ISO-8601 instant; expected such as"
                    + " 2026-01-01T00:00:00Z");
        }
    }

    private static Optional<String> single(Map<String, List<String>> params, String name) {
        List<String> values = params.getOrDefault(name, List.of());
        if (values.size() > 1) {
            throw new HistoryRequestException(name, "given " + values.size() + " times; give it once");
        }
        return values.isEmpty() || values.get(0).isBlank() ? Optional.empty() : Optional.of(values.get(0));
    }
}
