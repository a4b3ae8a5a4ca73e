package io.qubiq.benchmarks.targetrun;

import io.qubiq.core.tag.DataType;
import io.qubiq.historian.ValueTable;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdict, read from QuestDB over HTTP {@code /exec} once the history stopped growing. Both loads
 * are int64 tags, so everything is in the historian's LONG table ({@code qubiq_history_long}, columns
 * {@code ts, tag, value, quality, source_ts, server_ts, gateway}: docs/historian.md). Rows without a
 * value (BadNotConnected while a connection was down) and the OPC UA variables' initial 0 are not
 * samples of the load and are left out of the counts.
 *
 * <ul>
 *   <li>OPC UA: every variable got the values 1..S. Per value the rows and distinct tags are counted
 *       (S rows to read, whatever the number of tags); a value short of tags is lost unless its time
 *       (its first row, or interpolated from its neighbours at the update interval) lies in a window
 *       while the gateway was down, widened by a slack. Rows beyond one per (tag, value) are duplicates.</li>
 *   <li>MQTT: per topic the rows, distinct values and their range; a topic whose values are 1..max
 *       without a hole is compared with the acknowledged set arithmetically, any other topic by reading
 *       its distinct values. Lost = acknowledged by the broker and not stored; stored values the broker
 *       never acknowledged are counted apart (the publish failed while the broker went down).</li>
 *   <li>Identical rows: rows beyond the first of each (tag, ts, value).</li>
 *   <li>Overflow: rows whose quality carries the OPC UA Overflow bit (the server discarded a value).</li>
 * </ul>
 * Stateless apart from the server it reads; one thread.
 */
final class HistoryCheck {

    /**
     * The OPC UA Overflow info bit of a status code (with InfoType DataValue): the server's queue of the
     * monitored item overflowed and it discarded a value before this one.
     */
    static final long OVERFLOW_BIT = 0x80;

    static final String TABLE = "qubiq_history_" + ValueTable.of(DataType.INT64).suffix();

    /** A time span in epoch milliseconds while the gateway was not collecting. */
    record Window(long fromMs, long toMs) {
    }

    record Verdict(long opcChanged, long opcStored, long opcNotCollectedWhileDown, long opcLost, long opcDuplicates,
                   List<String> opcLostExamples, long mqttAcknowledged, long mqttStored, long mqttLost,
                   long mqttDuplicates, long mqttStoredUnacknowledged, List<String> mqttLostExamples,
                   List<String> mqttDuplicateExamples, long identicalRows, long rowsWithoutValue, long overflowRows,
                   long totalRows) {

        boolean clean() {
            return opcLost == 0 && opcDuplicates == 0 && mqttLost == 0 && mqttDuplicates == 0 && identicalRows == 0;
        }
    }

    /** How long one verdict query may take: tens of millions of rows on a loaded 2-core machine. */
    private static final Duration QUERY_TIMEOUT = Duration.ofMinutes(10);
    /** The span of {@code ts} one identical-rows query covers: about 6 million rows at full size. */
    private static final long IDENTICAL_WINDOW_MICROS = 60_000_000L;

    private final QuestDbServer questDb;

    HistoryCheck(QuestDbServer questDb) {
        this.questDb = questDb;
    }

    long rowCount() {
        return number(query("SELECT count() FROM " + TABLE).rows().get(0).get(0));
    }

    /**
     * Waits until the table's row count stayed the same over {@code stableMs} and its WAL is applied
     * (writerTxn = sequencerTxn), or {@code limitMs} passed; the final count.
     */
    long awaitStable(long stableMs, long limitMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + limitMs;
        long last = -1;
        long since = System.currentTimeMillis();
        while (System.currentTimeMillis() < deadline) {
            long count;
            boolean applied;
            try {
                count = rowCount();
                ExecResult wal = query("SELECT writerTxn, sequencerTxn FROM wal_tables() WHERE name = '"
                        + TABLE + "'");
                applied = wal.size() == 1 && number(wal.rows().get(0).get(0)) == number(wal.rows().get(0).get(1));
            } catch (RuntimeException notYet) {
                count = -1;
                applied = false;
            }
            if (count != last || !applied) {
                last = count;
                since = System.currentTimeMillis();
            } else if (System.currentTimeMillis() - since >= stableMs) {
                return count;
            }
            Thread.sleep(1000);
        }
        return last;
    }

    Verdict check(int tags, long finalSequence, long intervalMs, List<Window> down, SequencePublisher publisher) {
        long slackMs = 1000 + intervalMs;
        // ---- OPC UA, per value
        ExecResult perValue = query("SELECT value, count() n, count_distinct(tag) tags, cast(min(ts) AS LONG) first"
                + " FROM " + TABLE + " WHERE tag LIKE '" + GatewayConfigWriter.OPC_PREFIX + "%' AND value >= 1 AND value <= "
                + finalSequence + " GROUP BY value ORDER BY value");
        Map<Long, long[]> byValue = new HashMap<>();
        for (List<Object> row : perValue.rows()) {
            byValue.put(number(row.get(0)), new long[] {number(row.get(1)), number(row.get(2)), number(row.get(3)) / 1000});
        }
        long opcStored = 0;
        long opcDuplicates = 0;
        long opcExcused = 0;
        long opcLost = 0;
        List<String> opcExamples = new ArrayList<>();
        for (long v = 1; v <= finalSequence; v++) {
            long[] seen = byValue.get(v);
            long distinct = seen == null ? 0 : seen[1];
            opcStored += distinct;
            opcDuplicates += seen == null ? 0 : seen[0] - seen[1];
            long missing = tags - distinct;
            if (missing <= 0) {
                continue;
            }
            long at = seen != null ? seen[2] : estimatedTime(byValue, v, finalSequence, intervalMs);
            boolean excused = down.stream().anyMatch(w -> at >= w.fromMs() - slackMs && at <= w.toMs() + slackMs);
            if (excused) {
                opcExcused += missing;
            } else {
                opcLost += missing;
                if (opcExamples.size() < 5) {
                    opcExamples.add("value " + v + ": " + distinct + " of " + tags + " tags, at "
                            + java.time.Instant.ofEpochMilli(at));
                }
            }
        }
        // ---- MQTT, per topic
        ExecResult perTopic = query("SELECT tag, count() n, count_distinct(value) d, min(value) lo, max(value) hi"
                + " FROM " + TABLE + " WHERE tag LIKE '" + GatewayConfigWriter.MQTT_PREFIX + "%' AND value >= 1 GROUP BY tag");
        Map<String, long[]> byTopic = new HashMap<>();
        for (List<Object> row : perTopic.rows()) {
            byTopic.put(String.valueOf(row.get(0)), new long[] {number(row.get(1)), number(row.get(2)),
                    number(row.get(3)), number(row.get(4))});
        }
        long mqttAcked = 0;
        long mqttStored = 0;
        long mqttLost = 0;
        long mqttDuplicates = 0;
        long mqttUnacked = 0;
        List<String> mqttExamples = new ArrayList<>();
        List<String> mqttDuplicateExamples = new ArrayList<>();
        for (int i = 0; i < publisher.topics(); i++) {
            String tag = GatewayConfigWriter.MQTT_PREFIX + SequencePublisher.topic(i).substring(
                    GatewayConfigWriter.TOPIC_PREFIX.length());
            BitSet acked = publisher.acknowledged(i);
            mqttAcked += acked.cardinality();
            long[] seen = byTopic.get(tag);
            BitSet stored = new BitSet();
            if (seen != null) {
                mqttStored += seen[1];
                mqttDuplicates += seen[0] - seen[1];
                if (seen[0] > seen[1] && mqttDuplicateExamples.size() < 3) {
                    mqttDuplicateExamples.add(duplicateExample(tag));
                }
                if (seen[2] == 1 && seen[3] - seen[2] + 1 == seen[1]) {
                    stored.set(1, (int) seen[3] + 1);
                } else {
                    for (List<Object> row : query("SELECT DISTINCT value FROM " + TABLE + " WHERE tag = '" + tag
                            + "' AND value >= 1").rows()) {
                        stored.set((int) number(row.get(0)));
                    }
                }
            }
            BitSet lost = (BitSet) acked.clone();
            lost.andNot(stored);
            BitSet unacked = (BitSet) stored.clone();
            unacked.andNot(acked);
            mqttLost += lost.cardinality();
            mqttUnacked += unacked.cardinality();
            if (!lost.isEmpty() && mqttExamples.size() < 5) {
                mqttExamples.add(tag + ": " + lost.cardinality() + " lost, first " + lost.nextSetBit(0) + ", last "
                        + lost.previousSetBit(lost.length()));
            }
        }
        long identical = identicalRows();
        long overflow = number(query("SELECT count() FROM " + TABLE + " WHERE (quality & "
                + OVERFLOW_BIT + ") != 0").rows().get(0).get(0));
        long withoutValue = number(query("SELECT count() FROM " + TABLE + " WHERE value = null").rows().get(0).get(0));
        return new Verdict((long) tags * finalSequence, opcStored, opcExcused, opcLost, opcDuplicates, opcExamples,
                mqttAcked, mqttStored, mqttLost, mqttDuplicates, mqttUnacked, mqttExamples, mqttDuplicateExamples,
                identical, withoutValue, overflow, rowCount());
    }

    /**
     * Rows beyond the first of each (tag, ts, value), counted one minute of {@code ts} at a time: identical
     * rows share their {@code ts}, so the windows split no group, and one GROUP BY over the whole table of a
     * full-size run (60 million rows) exceeds QuestDB's memory limit on this machine.
     */
    private long identicalRows() {
        List<List<Object>> span = query("SELECT cast(min(ts) AS LONG), cast(max(ts) AS LONG) FROM " + TABLE).rows();
        if (span.isEmpty() || span.get(0).get(0) == null) {
            return 0;
        }
        long first = number(span.get(0).get(0));
        long last = number(span.get(0).get(1));
        long identical = 0;
        for (long from = first; from <= last; from += IDENTICAL_WINDOW_MICROS) {
            // sum(n - 1), not count(): QuestDB 9.3.4 answers count() over this filtered GROUP BY with 1 when no
            // group matches
            identical += number(query("SELECT sum(n - 1) FROM (SELECT tag, ts, value, count() n FROM " + TABLE
                    + " WHERE ts >= cast(" + from + " AS TIMESTAMP) AND ts < cast(" + (from + IDENTICAL_WINDOW_MICROS)
                    + " AS TIMESTAMP) GROUP BY tag, ts, value) WHERE n > 1").rows().get(0).get(0));
        }
        return identical;
    }

    /** The first value stored more than once on {@code tag}: how often, and its first and last row time. */
    private String duplicateExample(String tag) {
        for (List<Object> row : query("SELECT value, count() n, min(ts) first, max(ts) last FROM " + TABLE
                + " WHERE tag = '" + tag + "' AND value >= 1 GROUP BY value ORDER BY value").rows()) {
            if (number(row.get(1)) > 1) {
                return tag + ": value " + number(row.get(0)) + " stored " + number(row.get(1)) + " times, at "
                        + row.get(2) + " and " + row.get(3);
            }
        }
        return tag + ": (the duplicate rows were not found again)";
    }

    /** A value nobody stored: its time from the nearest stored value below (or above) at the update interval. */
    private static long estimatedTime(Map<Long, long[]> byValue, long v, long last, long intervalMs) {
        for (long below = v - 1; below >= 1; below--) {
            long[] seen = byValue.get(below);
            if (seen != null) {
                return seen[2] + (v - below) * intervalMs;
            }
        }
        for (long above = v + 1; above <= last; above++) {
            long[] seen = byValue.get(above);
            if (seen != null) {
                return seen[2] - (above - v) * intervalMs;
            }
        }
        return Long.MIN_VALUE / 2;
    }

    private static long number(Object json) {
        return json == null ? 0 : ((Number) json).longValue();
    }

    private ExecResult query(String sql) {
        return questDb.exec(sql, QUERY_TIMEOUT);
    }
}
