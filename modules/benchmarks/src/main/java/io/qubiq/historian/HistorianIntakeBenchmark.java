package io.qubiq.historian;

import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.core.time.Ticker;
import io.qubiq.sink.questdb.QuestDbRow;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The historian's per-sample work on its tag-bus delivery thread, without the bus and the channel:
 * a batch of {@value #BATCH} fresh FLOAT64 values of {@code tags} tags (made as a connector makes
 * them) through the storage filter (rule {@code always}; it keeps what it stores in the live tail)
 * and row making, as {@link Historian#accept} does. {@code values} makes the same values and nothing else: the
 * historian's own cost per sample is {@code intake} minus {@code values}.
 *
 * <p>Run: {@code scripts/bench-historian --intake-benchmark}. Each fork touches its whole heap
 * first ({@code -XX:+AlwaysPreTouch}): on this guest the page faults on fresh heap otherwise make
 * the first 5-10 seconds of a fork several times slower. Compare only figures from the same run:
 * the guest's speed moves between forks.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(HistorianIntakeBenchmark.BATCH)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 3, jvmArgsAppend = {"-XX:+AlwaysPreTouch", "-Xms2g", "-Xmx2g"})
public class HistorianIntakeBenchmark {

    static final int BATCH = 1000;
    private static final long FIRST_MICROS = 1_767_225_600_000_000L; // 2026-01-01

    @Param({"300"})
    int tags;

    @Param({"1000"})
    int liveTail;

    private TagPath[] paths;
    private StorageFilter filter;
    private LiveTail tail;
    private HistoryRows historyRows;
    private long next;

    @Setup(Level.Trial)
    public void setUp() {
        paths = new TagPath[tags];
        for (int i = 0; i < tags; i++) {
            paths[i] = TagPath.of("bench/area" + (i % 10) + "/tag" + i);
        }
        HistorianConfig config = HistorianConfig.defaults()
                .withRules(StorageRule.defaults().withMode(StorageMode.ALWAYS), List.of());
        tail = new LiveTail(liveTail);
        filter = StorageFilter.of(config, Clock.systemUTC(), Ticker.system(), tail);
        historyRows = new HistoryRows(HistorySchema.of(config), "benchmark");
    }

    @Benchmark
    public List<TagValue> values() {
        return batch();
    }

    @Benchmark
    public List<QuestDbRow> intake() {
        List<TagValue> values = batch();
        List<HistorySample> samples = new ArrayList<>(values.size());
        filter.offerAll(values, Ticker.system().nanos(), samples);
        List<QuestDbRow> rows = new ArrayList<>(samples.size());
        for (HistorySample sample : samples) {
            rows.add(historyRows.row(sample));
        }
        return rows;
    }

    private List<TagValue> batch() {
        List<TagValue> values = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            long micros = FIRST_MICROS + next++;
            Instant ts = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
            values.add(new TagValue(paths[(int) (next % tags)], 20.0 + (next % 1000) / 10.0, DataType.FLOAT64,
                    Quality.GOOD, ts, ts));
        }
        return values;
    }
}
