package io.qubiq.sink.questdb;

import io.qubiq.core.error.PermanentException;
import io.questdb.client.Sender;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The part of a historian drain that runs one row at a time on the forwarder thread, between two
 * flushes, against what the direct writer of {@code HistorianThroughputHarness} does in its place:
 * appending a batch of 1,000 history rows to the questdb-client's request, from the buffered bytes
 * ({@link RowAppender#appendEncoded}) or from Java values (direct). Each invocation appends the
 * batch and then resets the request, so nothing is sent: no server is needed (the HTTP client
 * connects on its first flush). The encoded append includes the checks that refuse bytes that do
 * not decode (until 2026-11-30 a separate pass on the read-ahead thread).
 *
 * <p>Run from the harness classpath (it is not in benchmarks.jar): {@code scripts/bench-historian
 * --append-benchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
@OperationsPerInvocation(RowAppendBenchmark.ROWS)
public class RowAppendBenchmark {

    static final int ROWS = 1000;
    private static final int TAGS = 300;
    private static final long BASE_MICROS = Instant.parse("2026-11-29T00:00:00Z").getEpochSecond() * 1_000_000L;

    private final String[] names = new String[TAGS];
    private final byte[][] encoded = new byte[ROWS][];
    private final String table = "gw_double";
    private QuestDbRowCodec codec;
    private RowAppender appender;
    private Sender sender;

    @Setup(Level.Trial)
    public void setUp() {
        QuestDbRow.Layout layout = QuestDbRow.Layout.of(table, List.of("tag"),
                List.of("value", "quality", "source_ts", "server_ts"));
        codec = new QuestDbRowCodec();
        for (int i = 0; i < TAGS; i++) {
            names[i] = "plant1/line" + (i / 50) + "/sensor" + i;
        }
        for (int i = 0; i < ROWS; i++) {
            Instant ts = instant(BASE_MICROS + i);
            encoded[i] = codec.encode(layout.row(ts, names[i % TAGS], value(i), 0L, ts, ts));
        }
        appender = new RowAppender(TimestampPrecision.MICROS);
        // nothing listens there: the client connects on its first flush, and this benchmark never flushes
        sender = Sender.fromConfig("http::addr=127.0.0.1:9;auto_flush=off;protocol_version=2;retry_timeout=0;");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sender.reset();
        sender.close();
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
    }

    private static double value(long i) {
        return (i % 10_000) * 0.25 - 1000.0;
    }

    /** What the forwarder does per batch: each buffered row's bytes onto the request. */
    @Benchmark
    public void encodedRows() throws PermanentException {
        appendAll(encoded);
    }

    private void appendAll(byte[][] rows) throws PermanentException {
        Sender s = sender;
        for (byte[] row : rows) {
            appender.appendEncoded(s, row, 0);
        }
        s.reset();
    }

    /**
     * {@link #encodedRows} over rows copied afresh before each batch on another thread, as the
     * forwarder gets them from its read-ahead: the copying is not timed, reading rows that another
     * core wrote is.
     */
    @Benchmark
    public void encodedRowsFromAnotherThread(FreshRows rows) throws PermanentException {
        appendAll(rows.rows);
    }

    /** {@link #encodedRowsFromAnotherThread} with the copies made on the benchmark's own thread. */
    @Benchmark
    public void encodedRowsFromThisThread(OwnRows rows) throws PermanentException {
        appendAll(rows.rows);
    }

    private static byte[][] copies(byte[][] rows) {
        byte[][] fresh = new byte[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            fresh[i] = rows[i].clone();
        }
        return fresh;
    }

    /** Fresh copies of the encoded rows before every invocation, made on a thread of their own. */
    @State(Scope.Thread)
    public static class FreshRows {
        byte[][] rows = new byte[ROWS][];
        private ExecutorService copier;

        @Setup(Level.Trial)
        public void start() {
            copier = Executors.newSingleThreadExecutor();
        }

        @Setup(Level.Invocation)
        public void copy(RowAppendBenchmark benchmark) throws Exception {
            rows = copier.submit(() -> copies(benchmark.encoded)).get();
        }

        @TearDown(Level.Trial)
        public void stop() {
            copier.shutdownNow();
        }
    }

    /** Fresh copies of the encoded rows before every invocation, made on the benchmark's thread. */
    @State(Scope.Thread)
    public static class OwnRows {
        byte[][] rows = new byte[ROWS][];

        @Setup(Level.Invocation)
        public void copy(RowAppendBenchmark benchmark) {
            rows = copies(benchmark.encoded);
        }
    }

    /** What the direct writer does per batch: the same rows from Java values. */
    @Benchmark
    public void directRows() {
        Sender s = sender;
        for (int i = 0; i < ROWS; i++) {
            long micros = BASE_MICROS + i;
            s.table(table)
                    .symbol("tag", names[i % TAGS])
                    .doubleColumn("value", value(i))
                    .longColumn("quality", 0)
                    .timestampColumn("source_ts", micros, ChronoUnit.MICROS)
                    .timestampColumn("server_ts", micros, ChronoUnit.MICROS)
                    .at(micros, ChronoUnit.MICROS);
        }
        s.reset();
    }
}
