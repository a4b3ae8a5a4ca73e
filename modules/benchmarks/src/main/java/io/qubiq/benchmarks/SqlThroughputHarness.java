package io.qubiq.benchmarks;

import static io.qubiq.benchmarks.Counts.count;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.sink.sql.SqlRow;
import io.qubiq.sink.sql.SqlRowCodec;
import io.qubiq.sink.sql.SqlSink;
import io.qubiq.sink.sql.SqlSinkConfig;
import io.qubiq.storeforward.ChannelBuilder;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.postgres.PostgresServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TimeZone;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Rows/s through the SQL sink against plain JDBC writing the same rows, in one run against one
 * embedded PostgreSQL (testkit {@link PostgresServer}). A {@link ThroughputHarness}, run by
 * {@code scripts/bench-sql}, never by CI.
 *
 * <ul>
 *   <li><b>direct</b>: pgjdbc on one connection, autocommit off, one prepared
 *       {@code INSERT INTO t (tag, value, quality, counter, ts) VALUES (?, ?, ?, ?, ?)}; per batch of
 *       {@code --batch} rows: bind, {@code addBatch}, {@code executeBatch}, {@code commit}.
 *   <li><b>gateway</b>: the same rows as {@link SqlRow}s (named-parameter statement, parameters in a
 *       map) submitted in batches of {@code --batch} to a {@link StoreForwardChannel} (fast path while
 *       PostgreSQL is up; overflow policy refuse, as for SQL connections) in front of a
 *       {@link SqlSink}: one transaction per batch, the same JDBC batch underneath.
 *   <li><b>buffered</b> (with {@code --buffered}; not part of the target): the same with the channel's
 *       fast path off, so every row goes through the disk buffer ({@code durability: none}) and the
 *       forwarder thread.
 * </ul>
 *
 * Before each timed scenario the harness lets the machine settle: {@code CHECKPOINT} in PostgreSQL,
 * then it waits (at most 3 s) until the kernel's dirty page cache is below 64 MiB, so write-back of
 * the previous scenario's files (PostgreSQL's, the channel buffer's preallocated segments) does not
 * land in the next one's timing.
 *
 * Besides wall-clock rows/s the harness reports the CPU time per row of the threads in its own JVM that
 * do the writing (the producer, which on the fast path also runs the sink, and the channel's forwarder):
 * PostgreSQL's work is the same on both sides, so the difference is the gateway's overhead, and it is
 * far less sensitive to the machine's load than the rates are. It also reports PostgreSQL's CPU time per
 * row (all its processes, from {@code /proc}), which shows how small the gateway's share is.
 *
 * <p>Each scenario writes a fresh table, is timed until all N rows are there (direct: the last commit
 * returned; the channel: it reports all N delivered and nothing buffered, {@link ChannelDrain}), and
 * checks {@code count(*)} and {@code sum(counter)}, so nothing lost or doubled passes.
 * Direct and gateway alternate which goes first in each repetition (the default of four repetitions
 * lets each go first twice); the ratio is gateway / direct of the same repetition, summarised as the
 * median over repetitions and as the pooled ratio (all gateway rows over all gateway time, against
 * the same for direct).
 */
public final class SqlThroughputHarness extends ThroughputHarness {

    /** The producer's time in each {@code submit} of the gateway scenario running now. */
    private long[] submitNanos = new long[0];

    /** The value at {@code fraction} of a sorted array (nearest rank). */
    private static long percentile(long[] sorted, double fraction) {
        int rank = (int) Math.ceil(fraction * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }


    private static final Instant BASE = Instant.parse("2026-11-29T00:00:00Z");
    private static final String COLUMNS = "(tag, value, quality, counter, ts)";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Options options;
    private final String[] tags;
    /** Volatile: the shutdown hook may stop it. */
    private volatile PostgresServer server;
    private int tables;

    private SqlThroughputHarness(Options options) {
        super(options.dir, options.keep);
        this.options = options;
        this.tags = new String[options.tags];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = "plant1/line" + (i / 50) + "/sensor" + i;
        }
    }

    static final class Options {
        long rows = 200_000;
        int repetitions = 4;
        long warmup = 50_000;
        int batch = 500;
        int tags = 300;
        boolean buffered = false;
        boolean keep = false;
        Path dir = Path.of(System.getenv().getOrDefault("BENCH_DIR", "/work/bench-tmp"), "sql");

        static final String USAGE = """
                SqlThroughputHarness [--rows N] [--repetitions R] [--warmup W] [--batch B] [--tags T]
                    [--buffered] [--dir DIR] [--keep]
                  N  rows per scenario and repetition (default 200k); R repetitions (default 4, an
                     even number so each side goes first equally often);
                  W  warm-up rows per scenario (default 50k, 0 = none); B rows per batch and
                     transaction on both sides (default 500, the channel's default batch);
                  T  distinct tag strings (default 300); --buffered adds the buffered scenario;
                  DIR scratch directory (PostgreSQL's cluster, channel buffers), deleted after
                     unless --keep. Counts accept k and m suffixes: 200k, 1m.""";

        static Options parse(String[] args) {
            Options o = new Options();
            CommandLine line = new CommandLine(args, USAGE);
            while (line.next()) {
                switch (line.flag()) {
                    case "--rows" -> o.rows = line.count();
                    case "--repetitions" -> o.repetitions = line.integer();
                    case "--warmup" -> o.warmup = line.count();
                    case "--batch" -> o.batch = line.integer();
                    case "--tags" -> o.tags = line.integer();
                    case "--buffered" -> o.buffered = true;
                    case "--dir" -> o.dir = line.path();
                    case "--keep" -> o.keep = true;
                    default -> throw line.unknown();
                }
            }
            if (o.rows < 1 || o.repetitions < 1 || o.batch < 1 || o.tags < 1 || o.warmup < 0) {
                throw new IllegalArgumentException("counts must be positive");
            }
            return o;
        }
    }

    /** One timed scenario; {@code cpuNanos} is the CPU time of the gateway JVM's writing threads. */
    record Run(String scenario, int repetition, long rows, double seconds, long cpuNanos, long serverCpuNanos,
               String load) implements TimedRun {
        @Override
        public double rate() {
            return rows / seconds;
        }

        double cpuMicrosPerRow() {
            return cpuNanos / 1000.0 / rows;
        }

        double serverCpuMicrosPerRow() {
            return serverCpuNanos / 1000.0 / rows;
        }
    }

    public static void main(String[] args) {
        ThroughputHarness.main(args, a -> new SqlThroughputHarness(Options.parse(a)));
    }

    @Override
    protected String optionsLine() {
        return String.format("options: rows %,d, repetitions %d, warm-up %,d, batch %d, tags %d, buffered %s, dir %s",
                options.rows, options.repetitions, options.warmup, options.batch, options.tags, options.buffered,
                options.dir);
    }

    @Override
    protected void setUp() {
        server = PostgresServer.start(options.dir.resolve("postgres"));
        System.out.printf("PostgreSQL postmaster pid %d on port %d (%s)%n%n", server.pid().orElse(-1L), server.port(),
                server.query("SELECT version()").get(0).get(0));
    }

    @Override
    protected void tearDown() {
        if (server != null) {
            server.stop();
        }
    }

    @Override
    protected boolean measure() throws Exception {
        if (options.warmup > 0) {
            log("warm-up: every scenario with %,d rows (not reported)", options.warmup);
            direct(options.warmup, 0);
            gateway("gateway", options.warmup, 0, true);
            if (options.buffered) {
                gateway("buffered", options.warmup, 0, false);
            }
        }
        List<Scenario<Run>> then = options.buffered
                ? List.of(r -> gateway("buffered", options.rows, r, false)) : List.of();
        List<Run> runs = alternate(options.repetitions, r -> direct(options.rows, r),
                r -> gateway("gateway", options.rows, r, true), then);
        report(runs, loadStart(), Machine.loadAverage());
        return true;
    }

    // ------------------------------------------------------------------------------------------ scenarios

    /** pgjdbc directly: one connection, a transaction per batch. */
    private Run direct(long n, int repetition) throws SQLException {
        String table = createTable();
        settle();
        String load = Machine.loadAverage();
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long server0 = serverCpuNanos();
        long serverCpu;
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), PostgresServer.USER, "")) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " " + COLUMNS
                    + " VALUES (?, ?, ?, ?, ?)")) {
                for (long i = 0; i < n; i++) {
                    ps.setString(1, tags[(int) (i % tags.length)]);
                    ps.setDouble(2, value(i));
                    ps.setInt(3, 192);
                    ps.setLong(4, i);
                    ps.setTimestamp(5, Timestamp.from(BASE.plusNanos(i * 1000)), utc);
                    ps.addBatch();
                    if ((i + 1) % options.batch == 0 || i == n - 1) {
                        ps.executeBatch();
                        c.commit();
                    }
                }
            }
            serverCpu = serverCpuNanos() - server0;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
        check(table, n);
        log("%-9s rep %d %,10d rows %7.2f s %,10.0f rows/s, CPU us/row: client %.2f, PostgreSQL %.2f (load %s)",
                "direct", repetition, n, seconds, n / seconds, cpu / 1000.0 / n, serverCpu / 1000.0 / n, load);
        drop(table);
        return new Run("direct", repetition, n, seconds, cpu, serverCpu, load);
    }

    /** SqlRows through a StoreForwardChannel (fast path on or off) and the SqlSink. */
    private Run gateway(String scenario, long n, int repetition, boolean fastPath) throws Exception {
        String table = createTable();
        String statement = "INSERT INTO " + table + " " + COLUMNS + " VALUES (:tag, :value, :quality, :counter, :ts)";
        Path channelDir = options.dir.resolve(scenario + "-" + repetition + "-channel");
        ChannelConfig config = ChannelConfig.defaults()
                .withMaxBytes(Math.max(1L << 30, n * 400))
                .withDurability(Durability.NONE)
                .withBatch(options.batch, 20)
                .withBackoff(100, 500)
                .withFastPath(fastPath);
        SqlSink sink = new SqlSink("bench", SqlSinkConfig.of(server.jdbcUrl()).withCredentials(PostgresServer.USER,
                null));
        StoreForwardChannel<SqlRow> channel = ChannelBuilder.of("bench", config, sink, new SqlRowCodec())
                .overflowDefault(OverflowPolicy.REFUSE).inDirectory(channelDir).events(EventPublisher.none()).build();
        channel.start();
        settle();
        String load = Machine.loadAverage();
        long t0;
        double submitted;
        double seconds;
        long cpu;
        long serverCpu;
        Thread forwarder = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("forwarder-bench")).findFirst().orElseThrow();
        try {
            long cpu0 = THREADS.getCurrentThreadCpuTime() + THREADS.getThreadCpuTime(forwarder.getId());
            long server0 = serverCpuNanos();
            t0 = System.nanoTime();
            List<SqlRow> batch = new ArrayList<>(options.batch);
            submitNanos = new long[(int) ((n + options.batch - 1) / options.batch)];
            int submits = 0;
            for (long i = 0; i < n; i++) {
                Map<String, Object> parameters = new LinkedHashMap<>(8);
                parameters.put("tag", tags[(int) (i % tags.length)]);
                parameters.put("value", value(i));
                parameters.put("quality", 192);
                parameters.put("counter", i);
                parameters.put("ts", BASE.plusNanos(i * 1000));
                batch.add(new SqlRow(Long.toString(i), statement, parameters));
                if (batch.size() == options.batch || i == n - 1) {
                    long s0 = System.nanoTime();
                    channel.submit(batch);
                    submitNanos[submits++] = System.nanoTime() - s0;
                    batch = new ArrayList<>(options.batch);
                }
            }
            submitted = (System.nanoTime() - t0) / 1e9;
            ChannelDrain.await(channel, n);
            seconds = (System.nanoTime() - t0) / 1e9;
            cpu = THREADS.getCurrentThreadCpuTime() + THREADS.getThreadCpuTime(forwarder.getId()) - cpu0;
            serverCpu = serverCpuNanos() - server0;
        } finally {
            channel.stop();
            sink.close();
        }
        ChannelStatus status = channel.status();
        check(table, n);
        if (status.itemsQuarantined() != 0 || status.itemsDropped() != 0) {
            throw new IllegalStateException(scenario + ": items quarantined or dropped: " + status);
        }
        long[] sorted = submitNanos.clone();
        java.util.Arrays.sort(sorted);
        log("%-9s rep %d %,10d rows %7.2f s %,10.0f rows/s, CPU us/row: client %.2f, PostgreSQL %.2f (all submitted"
                        + " after %.2f s; submit of a %d-row batch, producer's thread: p50 %.0f us, p99 %.0f us, max"
                        + " %.0f us; load %s)", scenario, repetition, n, seconds, n / seconds, cpu / 1000.0 / n,
                serverCpu / 1000.0 / n, submitted, options.batch, percentile(sorted, 0.50) / 1000.0,
                percentile(sorted, 0.99) / 1000.0, sorted[sorted.length - 1] / 1000.0, load);
        drop(table);
        BenchFiles.delete(channelDir);
        return new Run(scenario, repetition, n, seconds, cpu, serverCpu, load);
    }

    // ------------------------------------------------------------------------------------------ PostgreSQL

    /**
     * CHECKPOINT, then up to 3 s for the kernel's dirty pages to drop below 64 MiB (machine-wide: other
     * processes' writes count too, hence the cap).
     */
    private void settle() {
        server.execute("CHECKPOINT");
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (dirtyBytes() > (64L << 20) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000_000);
        }
    }

    /**
     * User and system CPU time of the postmaster and every process it started ({@link ProcessCpu}).
     * Processes that exit in between take their time with them; the backends that do the work live
     * through a scenario.
     */
    private long serverCpuNanos() {
        Optional<ProcessHandle> postmaster = server.pid().flatMap(ProcessHandle::of);
        if (postmaster.isEmpty()) {
            return 0;
        }
        return Stream.concat(Stream.of(postmaster.get()), postmaster.get().descendants())
                .mapToLong(p -> ProcessCpu.nanos(p.pid())).sum();
    }

    private static long dirtyBytes() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            return lines.filter(l -> l.startsWith("Dirty:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024).orElse(0L);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private String createTable() {
        String table = "bench_" + (++tables);
        server.execute("DROP TABLE IF EXISTS " + table, "CREATE TABLE " + table
                + " (tag text NOT NULL, value double precision, quality int, counter bigint, ts timestamptz)");
        return table;
    }

    private void drop(String table) {
        server.execute("DROP TABLE " + table);
    }

    /** Every row there once: the count and the sum of the counters 0..n-1. */
    private void check(String table, long n) {
        List<Object> r = server.query("SELECT count(*), sum(counter) FROM " + table).get(0);
        long count = ((Number) r.get(0)).longValue();
        long sum = r.get(1) == null ? 0 : ((Number) r.get(1)).longValue();
        if (count != n || sum != n * (n - 1) / 2) {
            throw new IllegalStateException(table + " has " + count + " rows (sum " + sum + "), expected " + n);
        }
    }

    // ------------------------------------------------------------------------------------------ report

    private void report(List<Run> runs, String loadStart, String loadEnd) {
        System.out.println();
        System.out.println("=== SQL throughput: channel -> SqlSink vs plain pgjdbc batches, same batch size ===");
        System.out.printf("rows/rep %,d, repetitions %d, warm-up %,d, batch %d rows (one transaction each), tags %d%n",
                options.rows, options.repetitions, options.warmup, options.batch, options.tags);
        System.out.printf("%-9s %4s %12s %9s %12s %7s %10s %10s  %s%n", "scenario", "rep", "rows", "seconds", "rows/s",
                "ratio", "client CPU", "server CPU", "load avg at start");
        for (int r = 1; r <= options.repetitions; r++) {
            Run d = TimedRun.find(runs, "direct", r);
            row(d, null);
            row(TimedRun.find(runs, "gateway", r), d);
            if (options.buffered) {
                row(TimedRun.find(runs, "buffered", r), d);
            }
        }
        TimedRun.Spread ratios = TimedRun.Spread.of(TimedRun.ratios(runs, "gateway", "direct"));
        System.out.printf("median: direct %,.0f rows/s, gateway %,.0f rows/s; gateway/direct per rep: median %.3f"
                        + " (min %.3f, max %.3f); pooled %.3f%n", Medians.of(values(runs, "direct", Run::rate)),
                Medians.of(values(runs, "gateway", Run::rate)), ratios.median(), ratios.min(), ratios.max(),
                pooled(runs, "gateway") / pooled(runs, "direct"));
        System.out.printf("CPU us/row, medians (client: the writing threads of this JVM; server: every PostgreSQL"
                        + " process): direct %.2f + %.2f, gateway %.2f + %.2f%n",
                Medians.of(values(runs, "direct", Run::cpuMicrosPerRow)),
                Medians.of(values(runs, "direct", Run::serverCpuMicrosPerRow)),
                Medians.of(values(runs, "gateway", Run::cpuMicrosPerRow)),
                Medians.of(values(runs, "gateway", Run::serverCpuMicrosPerRow)));
        if (options.buffered) {
            System.out.printf("buffered (fast path off): %,.0f rows/s; buffered/direct median %s%n",
                    Medians.of(values(runs, "buffered", Run::rate)),
                    TimedRun.Spread.of(TimedRun.ratios(runs, "buffered", "direct")));
        }
        printLoadLine(loadStart, loadEnd);
    }

    /** All rows of a scenario over all its seconds. */
    private static double pooled(List<Run> runs, String scenario) {
        return values(runs, scenario, Run::rows).stream().mapToDouble(Double::doubleValue).sum()
                / values(runs, scenario, Run::seconds).stream().mapToDouble(Double::doubleValue).sum();
    }

    private static List<Double> values(List<Run> runs, String scenario, java.util.function.ToDoubleFunction<Run> value) {
        return TimedRun.values(runs, scenario, value);
    }

    /** One table row; with a {@code baseline}, also the rate ratio against it. */
    private static void row(Run r, Run baseline) {
        System.out.printf("%-9s %4d %,12d %9.2f %,12.0f %7s %10.2f %10.2f  %s%n", r.scenario(), r.repetition(),
                r.rows(), r.seconds(), r.rate(), baseline == null ? "" : String.format("%.3f", r.rate() / baseline.rate()),
                r.cpuMicrosPerRow(), r.serverCpuMicrosPerRow(), r.load());
    }

    private static double value(long i) {
        return (i % 10_000) * 0.25 - 1000.0;
    }
}
