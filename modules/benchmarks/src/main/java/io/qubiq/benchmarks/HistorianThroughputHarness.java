package io.qubiq.benchmarks;

import static io.qubiq.benchmarks.HeapSampler.usedAfterGc;

import io.qubiq.benchmarks.HeapSampler.Heap;
import io.qubiq.benchmarks.HistorianReport.DrainResult;
import io.qubiq.benchmarks.HistorianReport.Run;
import io.qubiq.core.tag.TagPath;
import io.qubiq.historian.Historian;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.TagBus;
import io.qubiq.testkit.questdb.QuestDbServer;
import io.questdb.client.Sender;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * End-to-end throughput of the historian path against the questdb-client sender writing the same rows
 * directly, in one run against one QuestDB child JVM. A {@link ThroughputHarness}, run by
 * {@code scripts/bench-historian}, never by CI.
 *
 * <ul>
 *   <li><b>direct</b>: N rows with {@link Sender} (ILP/HTTP, auto-flush off, a flush every {@code --batch}
 *       rows), timed until {@code SELECT count()} sees all of them.
 *   <li><b>gateway</b>: the same N samples (FLOAT64, {@code --tags} tags, distinct microsecond timestamps so
 *       the dedup keys keep every row) published to a {@link TagBus}; {@link Historian} with storage rule
 *       {@code always} hands them to its {@link StoreForwardChannel} (fast path while QuestDB is up) and the
 *       {@code QuestDbSink}; timed until the last row is visible. Ratio = gateway / direct of the same
 *       repetition. The publisher is paced on the historian's tag-bus queue (kept under half full) so the
 *       bus's drop-oldest policy never discards a sample; any drop fails the run.
 *   <li><b>drain</b>: QuestDB stopped, a backlog of M samples published through the same path lands in the
 *       channel's disk buffer ({@code durability: none}); QuestDB restarted. By default ({@code --drain-slice S},
 *       1 million) the drain is timed in slices of S rows that alternate with slices of the direct writer of
 *       the same size (drain, direct, direct, drain, ...; a {@link DrainValve} between channel and sink holds
 *       the forwarder while direct writes), after an untimed warm-up of the restarted QuestDB; each side's
 *       rate is its rows over the sum of its slices, each slice timed until its rows are visible. Both sides
 *       then meet the same guest: on this machine its speed moved both by up to ±15 % from one minute to the
 *       next, more than the difference measured. With {@code --drain-slice 0} the drain is timed whole, from
 *       "QuestDB answers /ping" until all M rows are visible, and the baseline is direct with M rows right
 *       after QuestDB is restarted once more. {@code --drain-repetitions} repeats drain and baseline. Heap used
 *       is sampled every second during fill and drain, and after {@code System.gc()} at the start and end of
 *       the fill and at 10 %, 50 % and 90 % of the drain (between slices, when sliced).
 *   <li><b>warm-up</b> ({@code --warmup W}, not reported): W rows direct, W samples through the gateway and,
 *       unless {@code --no-drain}, a drain of W samples, so that every timed scenario runs compiled code.
 *       Without the drain warm-up the first timed drain also paid the JIT compiling its path (buffer reads,
 *       row bytes): about 1.3 s of compiler CPU on this machine, competing with QuestDB for the two cores,
 *       while the direct baseline's code had been compiled in the throughput warm-up.
 * </ul>
 *
 * Besides wall-clock rates, each scenario records the CPU time the harness JVM and the QuestDB child used
 * in its timed window (from the JVM and /proc), and for the gateway and the drain the JVM's by thread
 * (Java threads by name; the JIT compilers and the collector from /proc, see {@link ThreadCpu}).
 * The JVM's CPU per row is what each path costs, whatever share of the machine other processes take;
 * QuestDB's follows wall time rather than rows (its workers poll and take the CPU that is free).
 *
 * <p>As in a running gateway, one tag bus, historian and channel serve every gateway scenario of a run
 * (warm-up, repetitions, drains), writing one table; the direct writer writes one table of its own with
 * the historian's DDL ({@code WAL DEDUP UPSERT KEYS(ts, tag)}). Each scenario's rows take the next
 * timestamps of their table, so every row is new to it, and a scenario ends when its table's
 * {@code count()} has grown by exactly its rows. (Until this session each repetition started a new
 * historian and channel on new tables: every repetition then also measured start-up work a running
 * gateway does once, the first sample of each tag, live-tail rings growing, code paths compiled again
 * after the JIT had dropped them, on the gateway's side only.)
 */
public final class HistorianThroughputHarness extends ThroughputHarness {

    private static final long BASE_MICROS = Instant.parse("2026-11-29T00:00:00Z").getEpochSecond() * 1_000_000L;
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private final HistorianOptions options;
    private final Path scratch;
    private final TagPath[] paths;
    private final String[] names;
    /** Volatile: the shutdown hook may stop it. */
    private volatile QuestDbServer server;
    /** Tables, counts and the direct writer, on {@link #server}. */
    private HistorianTables tables;
    /** The gateway: one tag bus, historian and channel for the whole run, as in a running gateway. */
    private volatile HistorianPipeline pipeline;
    /** The direct writer's table, also one for the whole run. */
    private String directTable;
    /** A third table, only written to warm up a restarted QuestDB before a sliced drain; its rows. */
    private String warmTable;
    private long warmRows;
    /** Rows so far in the gateway's and in the direct writer's table; each scenario adds its own. */
    private long gatewayRows;
    private long directRows;

    private HistorianThroughputHarness(HistorianOptions options) {
        super(options.dir, options.keep);
        this.options = options;
        this.scratch = options.dir;
        this.paths = new TagPath[options.tags];
        this.names = new String[options.tags];
        for (int i = 0; i < options.tags; i++) {
            names[i] = "plant1/line" + (i / 50) + "/sensor" + i;
            paths[i] = TagPath.of(names[i]);
        }
    }

    /** CPU seconds used so far by this JVM and by the QuestDB child process. */
    record Cpu(double gateway, double questDb) {
        static final Cpu NONE = new Cpu(0, 0);

        Cpu since(Cpu start) {
            return new Cpu(gateway - start.gateway, questDb - start.questDb);
        }

        Cpu plus(Cpu other) {
            return new Cpu(gateway + other.gateway, questDb + other.questDb);
        }
    }

    // ------------------------------------------------------------------------------------------ main

    public static void main(String[] args) {
        ThroughputHarness.main(args, a -> new HistorianThroughputHarness(HistorianOptions.parse(a)));
    }

    @Override
    protected String optionsLine() {
        return String.format("options: samples %,d, backlog %,d%s, repetitions %d, drain repetitions %d, warm-up %,d,"
                        + " tags %d, batch %d, live tail %s, dir %s", options.samples, options.backlog,
                options.drain ? "" : " (drain skipped)", options.repetitions, options.drainRepetitions,
                options.warmup, options.tags, options.batch,
                options.liveTail < 0 ? "default" : options.liveTail + " samples per tag", options.dir);
    }

    @Override
    protected void setUp() throws Exception {
        System.out.printf("free space in %s: %s%n", scratch, gib(Files.getFileStore(scratch).getUsableSpace()));
        server = QuestDbServer.start(scratch.resolve("questdb"));
        System.out.printf("QuestDB child JVM pid %d, ILP/HTTP %s%n%n", server.pid(), server.ilpAddress());
        tables = new HistorianTables(server, names, options.batch, BASE_MICROS);
        directTable = tables.create("direct");
        // room for the largest backlog: the encoded row is about 100 bytes plus the buffer's record and
        // envelope headers, allow 4x
        long backlog = options.drain ? Math.max(options.backlog, options.warmup) : 0;
        long maxBytes = Math.max(2L << 30, backlog * 400);
        if (backlog * 160 + (3L << 30) > Files.getFileStore(scratch).getUsableSpace()) {
            throw new IllegalStateException("not enough disk for a backlog of " + backlog + " samples in " + scratch);
        }
        pipeline = HistorianPipeline.start(server.ilpAddress(), options, "gw", scratch.resolve("gw-channel"),
                maxBytes);
        // a running gateway has long since prepared its buffer's segments; not a cost of any scenario
        awaitBufferPrepared();
    }

    @Override
    protected void tearDown() throws Exception {
        try {
            if (pipeline != null) {
                pipeline.stop();
            }
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    @Override
    protected boolean measure() throws Exception {
        runScenarios(loadStart());
        return true;
    }

    private void runScenarios(String loadStart) throws Exception {
        if (options.warmup > 0) {
            log("warm-up: direct and gateway, %,d samples each (not reported)", options.warmup);
            direct("direct", "warm_direct", options.warmup, 0);
            gateway("warm_gateway", options.warmup, 0);
        }
        List<Run> runs = new ArrayList<>(alternate(options.repetitions,
                r -> direct("direct", "rep" + r + "_direct", options.samples, r),
                r -> gateway("rep" + r + "_gateway", options.samples, r)));
        List<DrainResult> drains = new ArrayList<>();
        if (options.drain && options.warmup > 0) {
            // the direct writer's code is compiled by now; the drain's (buffer reads, row bytes) is not yet
            log("warm-up: drain of %,d samples (not reported)", options.warmup);
            if (options.drainSlice > 0) {
                slicedDrain("warm_drain", options.warmup, 0);
            } else {
                drain("warm_drain", options.warmup, 0);
            }
        }
        if (options.drain && options.drainSlice > 0) {
            for (int r = 1; r <= options.drainRepetitions; r++) {
                SlicedDrain sliced = slicedDrain("rep" + r + "_drain", options.backlog, r);
                drains.add(sliced.drain());
                runs.add(sliced.drain().run());
                runs.add(sliced.direct());
            }
        } else if (options.drain) {
            for (int r = 1; r <= options.drainRepetitions; r++) {
                // as for throughput, alternate which goes first: the guest's speed drifts over minutes
                if (r % 2 == 0) {
                    runs.add(drainBaseline(r));
                }
                DrainResult drain = drain("rep" + r + "_drain", options.backlog, r);
                drains.add(drain);
                runs.add(drain.run());
                if (r % 2 == 1) {
                    runs.add(drainBaseline(r));
                }
            }
        }
        String loadEnd = Machine.loadAverage();
        new HistorianReport(options).print(runs, drains, loadStart, loadEnd);
    }

    // ------------------------------------------------------------------------------------------ scenarios

    /** Direct with the backlog's row count, starting as a drain does: right after QuestDB (re)started. */
    private Run drainBaseline(int repetition) {
        log("drain baseline: restarting QuestDB, then direct with the same %,d rows", options.backlog);
        server.restart();
        return direct("drain-direct", "rep" + repetition + "_drain_direct", options.backlog, repetition);
    }

    /** The questdb-client sender writing the historian's row layout directly. */
    private Run direct(String scenario, String prefix, long n, int repetition) {
        String load = Machine.loadAverage();
        Cpu c0 = cpu();
        long t0 = System.nanoTime();
        double sent = writeDirect(n);
        double seconds = (System.nanoTime() - t0) / 1e9;
        Cpu used = cpu().since(c0);
        log("%-16s %,12d rows %8.2f s %,12.0f rows/s (all sent after %.2f s; CPU harness %.2f s, QuestDB %.2f s;"
                + " load %s)", prefix, n, seconds, n / seconds, sent, used.gateway(), used.questDb(), load);
        return new Run(scenario, repetition, n, seconds, load, used.gateway(), used.questDb());
    }

    /**
     * Writes the next n rows of the direct table (a new sender, a flush every {@code --batch} rows) and
     * waits until its {@code count()} shows them; returns the seconds until the last flush returned.
     */
    private double writeDirect(long n) {
        double sent = tables.writeRows(directTable, directRows, n);
        directRows += n;
        return sent;
    }

    /** Tag bus → historian → channel (fast path) → QuestDbSink → QuestDB. */
    private Run gateway(String prefix, long n, int repetition) {
        HistorianPipeline p = pipeline;
        String table = p.table();
        long before = gatewayRows;
        String load = Machine.loadAverage();
        Map<String, Long> threads0 = ThreadCpu.snapshot();
        Cpu c0 = cpu();
        long t0 = System.nanoTime();
        p.publish(paths, BASE_MICROS + before, n);
        double published = (System.nanoTime() - t0) / 1e9;
        tables.awaitCount(table, before + n);
        gatewayRows += n;
        double seconds = (System.nanoTime() - t0) / 1e9;
        Cpu used = cpu().since(c0);
        String byThread = ThreadCpu.since(threads0, used.gateway());
        p.check(gatewayRows, prefix);
        ChannelStatus cs = p.channel().status();
        log("%-16s %,12d rows %8.2f s %,12.0f rows/s (all published after %.2f s; channel delivered %,d in all,"
                        + " buffered now %,d; CPU gateway %.2f s (%s), QuestDB %.2f s; load %s)", prefix, n,
                seconds, n / seconds, published, cs.itemsDelivered(), cs.bufferedItems(), used.gateway(),
                byThread, used.questDb(), load);
        return new Run("gateway", repetition, n, seconds, load, used.gateway(), used.questDb());
    }

    /** Backlog with QuestDB down, then restart and drain. */
    private DrainResult drain(String prefix, long n, int repetition) throws Exception {
        HistorianPipeline p = pipeline;
        long before = gatewayRows;
        long deliveredBefore = p.channel().status().itemsDelivered();
        List<Heap> heap = Collections.synchronizedList(new ArrayList<>());
        HeapSampler sampler = new HeapSampler(heap);
        try {
            String table = p.table();
            double fillSeconds = fill(prefix, n, heap, sampler);
            server.restart();
            String load = Machine.loadAverage();
            sampler.phase("drain");
            Map<String, Long> threads0 = ThreadCpu.snapshot();
            Cpu c0 = cpu();
            long d0 = System.nanoTime();
            double gcSeconds = 0;
            double gcCpu = 0;
            double firstRow = -1;
            double[] marks = {0.10, 0.50, 0.90};
            int nextMark = 0;
            while (true) {
                ChannelStatus cs = p.channel().status();
                double progress = 1.0 - (double) cs.bufferedItems() / n;
                if (firstRow < 0 && cs.itemsDelivered() > deliveredBefore) {
                    firstRow = (System.nanoTime() - d0) / 1e9;
                }
                sampler.progress(progress);
                while (nextMark < marks.length && progress >= marks[nextMark]) {
                    long g0 = System.nanoTime();
                    double gc0 = cpu().gateway();
                    heap.add(new Heap("drain", progress, usedAfterGc(), true));
                    gcCpu += cpu().gateway() - gc0;
                    gcSeconds += (System.nanoTime() - g0) / 1e9;
                    nextMark++;
                }
                if (cs.bufferedItems() == 0) {
                    break;
                }
                LockSupport.parkNanos(50_000_000);
            }
            tables.awaitCount(table, before + n);
            gatewayRows += n;
            double seconds = (System.nanoTime() - d0) / 1e9;
            Cpu used = cpu().since(c0);
            String byThread = ThreadCpu.since(threads0, used.gateway());
            sampler.phase("done");
            heap.add(new Heap("drain", 1, usedAfterGc(), true));
            // the three System.gc() calls are in the timed window; their CPU is not the drain's
            double gatewayCpu = used.gateway() - gcCpu;
            log("%-16s %,12d rows %8.2f s %,12.0f rows/s (first row delivered after %.2f s; %.2f s spent in the"
                    + " three System.gc() calls, included; CPU gateway %.2f s without those GCs' %.2f s (%s), QuestDB"
                    + " %.2f s; load %s)", prefix, n, seconds, n / seconds, firstRow, gcSeconds, gatewayCpu, gcCpu,
                    byThread, used.questDb(), load);
            return new DrainResult(new Run("drain", repetition, n, seconds, load, gatewayCpu, used.questDb()),
                    fillSeconds, List.copyOf(heap), gcSeconds, firstRow, List.of());
        } finally {
            sampler.stop();
            if (!server.isRunning()) {
                server.restart();
            }
        }
    }

    /**
     * QuestDB stopped, n samples published into the channel's buffer (the outage's backlog); heap read
     * after a full GC at the start and the end. Leaves QuestDB stopped; returns the fill's seconds.
     */
    private double fill(String prefix, long n, List<Heap> heap, HeapSampler sampler) {
        HistorianPipeline p = pipeline;
        long before = gatewayRows;
        log("drain: stopping QuestDB, publishing a backlog of %,d samples into the channel's buffer", n);
        server.stop();
        heap.add(new Heap("fill", 0, usedAfterGc(), true));
        sampler.phase("fill");
        sampler.start();
        long f0 = System.nanoTime();
        p.publish(paths, BASE_MICROS + before, n);
        p.awaitBuffered(before + n, n);
        double fillSeconds = (System.nanoTime() - f0) / 1e9;
        sampler.phase("backlog");
        heap.add(new Heap("fill", 1, usedAfterGc(), true));
        ChannelStatus full = p.channel().status();
        log("drain: backlog of %,d items, %s on disk, filled in %.2f s (%,.0f samples/s); restarting QuestDB",
                full.bufferedItems(), gib(full.bufferedBytes()), fillSeconds, n / fillSeconds);
        p.check(before + n, prefix);
        return fillSeconds;
    }

    /**
     * Right after a restart QuestDB's own JVM runs cold code (interpreted, then compiled) for a few
     * seconds: whichever side wrote first paid for it, a whole drain slice slower than the rest. Both
     * sides start warm instead: direct rows into a third table, untimed, while the forwarder waits.
     */
    private void warmUpQuestDb(String prefix) {
        if (warmTable == null) {
            warmTable = tables.create("qdbwarm");
        }
        long n = Math.min(options.drainSlice, 1_000_000);
        long t0 = System.nanoTime();
        tables.writeRows(warmTable, warmRows, n);
        warmRows += n;
        log("%-16s QuestDB restarted; warmed up with %,d direct rows into %s in %.2f s (untimed)", prefix, n,
                warmTable, (System.nanoTime() - t0) / 1e9);
    }

    /** A drain timed in slices and its direct baseline, timed in the slices between. */
    record SlicedDrain(DrainResult drain, Run direct) {
    }

    /**
     * Backlog with QuestDB down, then QuestDB restarted and the backlog drained in slices of {@code
     * --drain-slice} rows, alternating with slices of the direct writer of the same size: drain, direct,
     * direct, drain, drain, direct, ... (which goes first flips with the repetition). While one side
     * runs the other is idle: the forwarder waits in the {@link DrainValve} holding its next batch.
     * Each slice is timed from its start until its table's {@code count()} shows its rows; each side's
     * rate is its rows over the sum of its slices. So both sides meet the guest's drift within seconds
     * of each other (a whole 10-million drain takes about a minute, and the guest's speed moved both
     * sides by ±15 % between consecutive minutes on this machine). Heap is read after a full GC between
     * slices, outside the timed windows, once the drain has passed 10, 50 and 90 %.
     */
    private SlicedDrain slicedDrain(String prefix, long n, int repetition) throws Exception {
        HistorianPipeline p = pipeline;
        DrainValve valve = p.valve();
        List<Heap> heap = Collections.synchronizedList(new ArrayList<>());
        HeapSampler sampler = new HeapSampler(heap);
        valve.hold();
        try {
            String table = p.table();
            double fillSeconds = fill(prefix, n, heap, sampler);
            server.restart();
            warmUpQuestDb(prefix);
            String load = Machine.loadAverage();
            sampler.phase("drain");
            SliceTally drain = new SliceTally(this::cpu);
            SliceTally direct = new SliceTally(this::cpu);
            List<Double> ratios = new ArrayList<>();
            double[] marks = {0.10, 0.50, 0.90};
            int nextMark = 0;
            long drained = 0;
            for (int k = 0; drained < n; k++) {
                long want = Math.min(options.drainSlice, n - drained);
                boolean drainFirst = (k + repetition) % 2 == 1;
                double drainSeconds = 0;
                double directSeconds = 0;
                double firstBatch = 0;
                long failed = 0;
                long got = 0;
                for (int side = 0; side < 2; side++) {
                    if ((side == 0) == drainFirst) {
                        long passed0 = valve.passed();
                        long failures0 = valve.failures();
                        drain.begin();
                        long start = System.nanoTime();
                        valve.awaitPassed(valve.release(want));
                        firstBatch = (valve.firstPassNanos() - start) / 1e6;
                        failed = valve.failures() - failures0;
                        got = valve.passed() - passed0;
                        tables.awaitCount(table, gatewayRows + got);
                        gatewayRows += got;
                        drainSeconds = drain.end(got);
                    } else {
                        direct.begin();
                        writeDirect(want);
                        directSeconds = direct.end(want);
                    }
                }
                drained += got;
                double ratio = (got / drainSeconds) / (want / directSeconds);
                ratios.add(ratio);
                log("%-16s slice %2d: drain %,9d rows %6.2f s %,9.0f rows/s (first batch after %.0f ms, %d failed"
                        + " writes), direct %,9d rows %6.2f s %,9.0f rows/s, ratio %.3f", prefix, k + 1, got,
                        drainSeconds, got / drainSeconds, firstBatch, failed, want, directSeconds, want / directSeconds,
                        ratio);
                double progress = (double) drained / n;
                sampler.progress(progress);
                while (nextMark < marks.length && progress >= marks[nextMark]) {
                    heap.add(new Heap("drain", progress, usedAfterGc(), true));
                    nextMark++;
                }
            }
            if (p.channel().status().bufferedItems() != 0) {
                throw new IllegalStateException(prefix + ": drained " + drained + " of " + n + " but the channel"
                        + " still holds " + p.channel().status().bufferedItems());
            }
            p.check(gatewayRows, prefix);
            sampler.phase("done");
            if (heap.stream().noneMatch(h -> h.afterGc() && h.progress() == 1)) {
                heap.add(new Heap("drain", 1, usedAfterGc(), true));
            }
            Run drainRun = new Run("drain", repetition, drain.rows(), drain.seconds(), load, drain.cpu().gateway(),
                    drain.cpu().questDb());
            Run directRun = new Run("drain-direct", repetition, direct.rows(), direct.seconds(), load,
                    direct.cpu().gateway(), direct.cpu().questDb());
            log("%-16s %,12d rows %8.2f s %,12.0f rows/s in %d slices (CPU gateway %.2f s (%s), QuestDB %.2f s);"
                    + " direct in the slices between: %,d rows %.2f s %,.0f rows/s (CPU %.2f s, QuestDB %.2f s);"
                    + " ratio %.3f; load %s", prefix, drainRun.rows(), drainRun.seconds(), drainRun.rate(),
                    ratios.size(), drainRun.gatewayCpu(), ThreadCpu.describe(drain.threads(), drainRun.gatewayCpu()),
                    drainRun.questDbCpu(), directRun.rows(), directRun.seconds(), directRun.rate(),
                    directRun.gatewayCpu(), directRun.questDbCpu(), drainRun.rate() / directRun.rate(), load);
            return new SlicedDrain(new DrainResult(drainRun, fillSeconds, List.copyOf(heap), 0, -1,
                    List.copyOf(ratios)), directRun);
        } finally {
            valve.open();
            sampler.stop();
            if (!server.isRunning()) {
                server.restart();
            }
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    /**
     * Waits (at most 30 s) until the buffer threads of a newly opened channel have prepared its
     * first segments (mapping and touching 64 MiB files): until their CPU time stays still for 0.5 s.
     */
    private static void awaitBufferPrepared() {
        long deadline = System.nanoTime() + 30_000_000_000L;
        long last = -1;
        long stillSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            long cpu = ThreadCpu.snapshot().entrySet().stream().filter(e -> e.getKey().startsWith("qubiq-buffer-prepare"))
                    .mapToLong(Map.Entry::getValue).sum();
            if (cpu != last) {
                last = cpu;
                stillSince = System.nanoTime();
            } else if (System.nanoTime() - stillSince > 500_000_000L) {
                return;
            }
            LockSupport.parkNanos(50_000_000L);
        }
    }

    private Cpu cpu() {
        return new Cpu(OS.getProcessCpuTime() / 1e9, questDbCpuSeconds());
    }

    /** utime + stime of the QuestDB child (0 where there is no /proc). */
    private double questDbCpuSeconds() {
        return ProcessCpu.nanos(server.pid()) / 1e9;
    }

    private static String gib(long bytes) {
        return String.format("%.2f GiB", bytes / (double) (1L << 30));
    }
}
