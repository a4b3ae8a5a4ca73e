package io.qubiq.historian.query;

import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.historian.Historian;
import io.qubiq.historian.HistorySample;
import io.qubiq.historian.HistorySchema;
import io.qubiq.historian.LiveTail;
import io.qubiq.historian.ValueTable;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlException;
import io.qubiq.questdb.exec.SqlResult;
import io.qubiq.questdb.exec.SqlText;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Answers history queries from the history tables over {@code /exec}, merged with the
 * {@link LiveTail}:
 * <ul>
 *   <li><b>Raw</b>: every stored sample of the tags with {@code from <= ts < to}, from every value
 *       table, plus the live-tail samples QuestDB does not have yet. A point is identified by tag,
 *       timestamp (to the microsecond QuestDB stores), value and quality, as a row is by the tables'
 *       dedup keys: a sample in both QuestDB and the tail is returned once, and so is the same sample
 *       stored by two gateways; two samples of a tag with one timestamp and different values are both
 *       returned, in the order they were stored.
 *   <li><b>Aggregate</b>: one point per tag and interval ({@code SAMPLE BY ... ALIGN TO CALENDAR},
 *       intervals aligned to UTC), from the numeric tables (DOUBLE and LONG) only, over stored rows
 *       only: the live tail is not folded into aggregates.
 * </ul>
 * Results are bounded by {@code maxResultRows}: an aggregate query is refused before it runs when
 * its interval count times its tags exceeds it, a raw query as soon as more rows arrive
 * ({@code LIMIT} one past the bound). Tags are validated {@link TagPath}s and quoted, times are
 * rendered from {@link Instant}s: no text from the caller reaches the SQL unchecked.
 *
 * <p>Threading: stateless apart from its collaborators; safe for concurrent queries.
 */
public final class HistoryQuery {

    private final ExecClient exec;
    private final HistorySchema schema;
    private final LiveTail liveTail;
    private final int maxResultRows;

    public HistoryQuery(ExecClient exec, HistorySchema schema, LiveTail liveTail, int maxResultRows) {
        this.exec = Objects.requireNonNull(exec, "exec");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.liveTail = Objects.requireNonNull(liveTail, "liveTail");
        if (maxResultRows < 1) {
            throw new IllegalArgumentException("maxResultRows must be at least 1, got " + maxResultRows);
        }
        this.maxResultRows = maxResultRows;
    }

    /** Queries of {@code historian}'s tables and live tail, with its configured limit. */
    public static HistoryQuery of(Historian historian) {
        return new HistoryQuery(historian.exec(), historian.schema(), historian.liveTail(),
                historian.config().maxResultRows());
    }

    /**
     * Runs {@code request}: raw or aggregate as it says. One series per requested tag, in request
     * order, even when empty.
     *
     * @throws ResultTooLargeException more points than the limit
     * @throws SqlException            QuestDB unreachable or refused the query
     */
    public List<Series> run(HistoryRequest request) throws ResultTooLargeException, SqlException {
        if (request.interval().isPresent()) {
            return aggregate(request.tags(), request.from(), request.to(), request.interval().get(),
                    request.aggregation().orElseThrow());
        }
        return raw(request.tags(), request.from(), request.to());
    }

    public List<Series> raw(List<TagPath> tags, Instant from, Instant to) throws ResultTooLargeException,
            SqlException {
        Map<TagPath, Map<Point, Point>> byTag = emptySeries(tags);
        long total = 0;
        for (ValueTable table : ValueTable.values()) {
            SqlResult result = exec.exec("SELECT ts, tag, value, quality FROM " + schema.table(table) + where(tags, from, to)
                    + " LIMIT " + (maxResultRows + 1L));
            total += result.rows().size();
            if (total > maxResultRows) {
                throw new ResultTooLargeException(maxResultRows, total, false);
            }
            for (List<Object> row : result.rows()) {
                Point point = new Point(Instant.parse((String) row.get(0)), table.fromJson(row.get(2)),
                        quality(row.get(3)));
                byTag.get(TagPath.of((String) row.get(1))).putIfAbsent(point, point);
            }
        }
        for (TagPath tag : tags) {
            Map<Point, Point> points = byTag.get(tag);
            for (HistorySample sample : liveTail.samples(tag, from, to)) {
                Point point = new Point(sample.ts().truncatedTo(ChronoUnit.MICROS),
                        ValueTable.of(sample.type()).normalize(sample.value()), sample.quality());
                if (points.putIfAbsent(point, point) == null && ++total > maxResultRows) {
                    throw new ResultTooLargeException(maxResultRows, total, false);
                }
            }
        }
        return series(tags, byTag);
    }

    public List<Series> aggregate(List<TagPath> tags, Instant from, Instant to, Duration interval,
                                  Aggregation aggregation) throws ResultTooLargeException, SqlException {
        if (interval.toMillis() < 1) {
            throw new HistoryRequestException("interval", "must be at least 1 ms, was " + interval);
        }
        long intervals = Duration.between(from, to).toMillis() / interval.toMillis() + 1;
        long bound = intervals * tags.size();
        if (bound > maxResultRows) {
            throw new ResultTooLargeException(maxResultRows, bound, true);
        }
        Map<TagPath, Map<Instant, Point>> byTag = emptySeries(tags); // one point per bucket
        for (ValueTable table : List.of(ValueTable.DOUBLE, ValueTable.LONG)) {
            SqlResult result = exec.exec("SELECT ts, tag, " + aggregation.sql() + " v, max(quality) q FROM "
                    + schema.table(table) + where(tags, from, to) + " SAMPLE BY " + sampleUnit(interval)
                    + " ALIGN TO CALENDAR LIMIT " + (maxResultRows + 1L));
            for (List<Object> row : result.rows()) {
                Instant ts = Instant.parse((String) row.get(0));
                Object value = row.get(2);
                if (aggregation == Aggregation.AVG && value != null) {
                    value = ((Number) value).doubleValue();
                } else if (aggregation == Aggregation.COUNT && value != null) {
                    value = ((Number) value).longValue();
                } else {
                    value = table.fromJson(value);
                }
                byTag.get(TagPath.of((String) row.get(1))).put(ts, new Point(ts, value, quality(row.get(3))));
            }
        }
        return series(tags, byTag);
    }

    private static String where(List<TagPath> tags, Instant from, Instant to) {
        String in = tags.stream().map(tag -> SqlText.literal(tag.value()))
                .collect(Collectors.joining(", "));
        return " WHERE tag IN (" + in + ") AND ts >= " + SqlText.timestamp(from) + " AND ts < " + SqlText.timestamp(to);
    }

    /** QuestDB's SAMPLE BY unit: whole seconds as {@code s}, otherwise milliseconds as {@code T}. */
    static String sampleUnit(Duration interval) {
        long ms = interval.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "T";
    }

    private static Quality quality(Object json) {
        return json == null ? Quality.BAD : new Quality((int) ((Number) json).longValue());
    }

    /** Per tag, its points by key, in the order they were first put. */
    private static <K> Map<TagPath, Map<K, Point>> emptySeries(List<TagPath> tags) {
        Set<TagPath> seen = new HashSet<>();
        Map<TagPath, Map<K, Point>> byTag = new LinkedHashMap<>();
        for (TagPath tag : tags) {
            if (seen.add(tag)) {
                byTag.put(tag, new LinkedHashMap<>());
            }
        }
        return byTag;
    }

    /** Each tag's points oldest first; points with one timestamp keep the order they were put in. */
    private static <K> List<Series> series(List<TagPath> tags, Map<TagPath, Map<K, Point>> byTag) {
        List<Series> out = new ArrayList<>();
        for (Map.Entry<TagPath, Map<K, Point>> entry : byTag.entrySet()) {
            List<Point> points = new ArrayList<>(entry.getValue().values());
            points.sort(Comparator.comparing(Point::ts));
            out.add(new Series(entry.getKey(), points));
        }
        return out;
    }
}
