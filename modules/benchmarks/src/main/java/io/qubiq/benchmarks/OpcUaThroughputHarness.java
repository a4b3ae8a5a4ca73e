package io.qubiq.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.qubiq.connector.opcua.OpcUaConnectionConfig;
import io.qubiq.connector.opcua.OpcUaConnector;
import io.qubiq.connector.opcua.OpcUaStats;
import io.qubiq.connector.opcua.OpcUaTagConfig;
import io.qubiq.connector.opcua.GrantedItem;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.SubscriberStats;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.tagbus.TagBus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Throughput of the OPC UA connector: a Milo server in its own JVM ({@link OpcUaBenchServer}) changes
 * N variables every {@code --interval-ms}; the real {@link OpcUaConnector} monitors all of them
 * ({@code --sampling-ms}, {@code --queue}, {@code --publishing-ms}, {@code --items-per-subscription})
 * and publishes into a real {@link TagBus}, whose one subscriber counts what arrives. A
 * {@link ThroughputHarness}, run by {@code scripts/bench-opcua}, never by CI. The queue of 50 values per item
 * (5 s at 100 ms) is what lets the gateway stall, for garbage collection or a CPU it shares with
 * other work, without the server discarding values; with {@code --queue 10} (1 s) a starved gateway
 * loses values to the server's queue overflow (they arrive flagged Overflow).
 *
 * <p>Every variable carries the server's sequence number (1, 2, 3, ...), so the counting subscriber
 * sees each lost value as a gap and a repeated one as a duplicate. After {@code --warmup-s}, each of
 * {@code --repetitions} windows of {@code --measure-s} reports the values delivered per second (against
 * N / interval expected), and the CPU the gateway JVM used (process CPU time / wall time, in cores;
 * this JVM holds only the connector, the tag bus and the counting subscriber) next to the server
 * JVM's. At the end the server stops updating and the harness waits until every tag shows the
 * server's last sequence number: then "lost" counts every value of the whole run that never arrived,
 * and any lost value makes the exit code 2.
 */
public final class OpcUaThroughputHarness extends ThroughputHarness {

    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    static final class Options {
        int tags = 10_000;
        long intervalMs = 100;
        long samplingMs = 100;
        long publishingMs = 100;
        int queue = 50;
        int itemsPerSubscription = 1000;
        int warmupS = 20;
        int measureS = 60;
        int repetitions = 3;
        String serverHeap = "1g";

        static final String USAGE = """
                OpcUaThroughputHarness [--tags N] [--interval-ms I] [--sampling-ms S] [--publishing-ms P]
                    [--queue Q] [--items-per-subscription K] [--warmup-s W] [--measure-s M]
                    [--repetitions R] [--server-heap 1g]
                  N variables changing every I ms (10000, 100: 100,000 values/s); tags sampled every S ms,
                  published every P ms, queue Q per item, at most K items per subscription (100, 100, 50, 1000);
                  W s warm-up, then R windows of M s (20, 3 x 60).""";

        static Options parse(String[] args) {
            Options o = new Options();
            CommandLine line = new CommandLine(args, USAGE);
            while (line.next()) {
                switch (line.flag()) {
                    case "--tags" -> o.tags = line.integer();
                    case "--interval-ms" -> o.intervalMs = line.integer();
                    case "--sampling-ms" -> o.samplingMs = line.integer();
                    case "--publishing-ms" -> o.publishingMs = line.integer();
                    case "--queue" -> o.queue = line.integer();
                    case "--items-per-subscription" -> o.itemsPerSubscription = line.integer();
                    case "--warmup-s" -> o.warmupS = line.integer();
                    case "--measure-s" -> o.measureS = line.integer();
                    case "--repetitions" -> o.repetitions = line.integer();
                    case "--server-heap" -> o.serverHeap = line.text();
                    default -> throw line.unknown();
                }
            }
            return o;
        }

        double expectedPerSecond() {
            return tags * 1000.0 / intervalMs;
        }
    }

    /** One measuring window. */
    record Window(int repetition, double seconds, long delivered, long lost, double cores, double serverCores,
                  double gcSeconds, String load) {
        double rate() {
            return delivered / seconds;
        }
    }

    /**
     * The tag bus subscriber that checks the sequence of every tag: which sequence numbers arrived
     * (a bit per number and tag), which arrived more than once, which arrived after a later one, and
     * how many carried the OPC UA Overflow bit (the server's item queue discarded values before
     * it). Runs on its delivery thread; the harness thread reads the atomic counters, and the bit
     * sets only after the delivery thread went quiet (the end of the run).
     */
    static final class SequenceCheck {
        /** InfoType DataValue (0x400) with the Overflow bit (0x80). */
        private static final int OVERFLOW = 0x480;

        private final Map<TagPath, Integer> index = new HashMap<>();
        private final java.util.BitSet[] received;
        private final long[] first;
        private final AtomicLongArray last;
        private final AtomicLong delivered = new AtomicLong();
        private final AtomicLong gaps = new AtomicLong();
        private final AtomicLong repeated = new AtomicLong();
        private final AtomicLong outOfOrder = new AtomicLong();
        private final AtomicLong overflowFlagged = new AtomicLong();
        private final AtomicLong notGood = new AtomicLong();
        private final AtomicLong seen = new AtomicLong();

        SequenceCheck(List<TagPath> paths) {
            for (int i = 0; i < paths.size(); i++) {
                index.put(paths.get(i), i);
            }
            received = new java.util.BitSet[paths.size()];
            first = new long[paths.size()];
            last = new AtomicLongArray(paths.size());
            for (int i = 0; i < paths.size(); i++) {
                last.set(i, -1);
                received[i] = new java.util.BitSet();
            }
        }

        void accept(List<TagValue> batch) {
            for (TagValue value : batch) {
                delivered.incrementAndGet();
                Integer i = index.get(value.path());
                if (i == null || !value.quality().isGood() || !(value.value() instanceof Long sequence)) {
                    notGood.incrementAndGet();
                    continue;
                }
                if ((value.quality().code() & OVERFLOW) == OVERFLOW) {
                    overflowFlagged.incrementAndGet();
                }
                long highest = last.get(i);
                if (highest < 0) {
                    seen.incrementAndGet();
                    first[i] = sequence;
                    highest = sequence - 1;
                }
                if (sequence < first[i] || received[i].get((int) (sequence - first[i]))) {
                    repeated.incrementAndGet();
                    continue;
                }
                received[i].set((int) (sequence - first[i]));
                if (sequence > highest + 1) {
                    gaps.addAndGet(sequence - highest - 1); // may still arrive, out of order
                }
                if (sequence < highest) {
                    outOfOrder.incrementAndGet();
                } else {
                    last.set(i, sequence);
                }
            }
        }

        /** How many tags have not reached {@code sequence} yet. */
        int behind(long sequence) {
            int behind = 0;
            for (int i = 0; i < last.length(); i++) {
                if (last.get(i) < sequence) {
                    behind++;
                }
            }
            return behind;
        }

        /** Sequence numbers up to {@code upTo} that never arrived, over all tags (after the run). */
        long neverReceived(long upTo) {
            long missing = 0;
            for (int i = 0; i < received.length; i++) {
                if (last.get(i) < 0) {
                    continue;
                }
                long expected = upTo - first[i] + 1;
                missing += Math.max(0, expected - received[i].get(0, (int) expected).cardinality());
            }
            return missing;
        }
    }

    private final Options options;
    private final List<TagPath> paths = new ArrayList<>();
    private final Path logDir;
    /** Volatile: the shutdown hook may stop it. */
    private volatile Process server;
    private Writer serverIn;
    private final BlockingQueue<String> serverOut = new LinkedBlockingQueue<>();
    private String endpoint;

    private OpcUaThroughputHarness(Options options, Path logDir) {
        this.options = options;
        this.logDir = logDir;
        for (int i = 0; i < options.tags; i++) {
            paths.add(TagPath.of("bench/" + OpcUaBenchServer.BenchNamespace.id(i)));
        }
    }

    public static void main(String[] args) {
        Path logDir = Path.of(System.getProperty("bench.out", "modules/benchmarks/target"));
        ThroughputHarness.main(args, a -> new OpcUaThroughputHarness(Options.parse(a), logDir));
    }

    @Override
    protected String optionsLine() {
        return String.format("options: tags %,d, interval %d ms, sampling %d ms, publishing %d ms, queue %d, items per"
                        + " subscription %d, warm-up %d s, %d x %d s, server heap %s", options.tags, options.intervalMs,
                options.samplingMs, options.publishingMs, options.queue, options.itemsPerSubscription, options.warmupS,
                options.repetitions, options.measureS, options.serverHeap);
    }

    @Override
    protected void setUp() throws Exception {
        Files.createDirectories(logDir);
        System.out.printf("OPC UA throughput: %,d variables changing every %d ms (%,.0f values/s expected); sampling %d ms,"
                        + " publishing %d ms, queue %d, <= %d items per subscription; %d cores, load %s; gateway JVM %s%n",
                options.tags, options.intervalMs, options.expectedPerSecond(), options.samplingMs,
                options.publishingMs, options.queue, options.itemsPerSubscription, Runtime.getRuntime().availableProcessors(),
                loadStart(), ManagementFactory.getRuntimeMXBean().getInputArguments());
        endpoint = startServer();
        System.out.printf("server JVM pid %d at %s%n", server.pid(), endpoint);
    }

    @Override
    protected void tearDown() {
        stopServer();
    }

    /** Runs the benchmark; false when a value was lost or did not arrive. */
    @Override
    protected boolean measure() throws Exception {
        String loadStart = loadStart();
        TagBus bus = new TagBus();
        bus.start();
        SequenceCheck check = new SequenceCheck(paths);
        bus.subscribe(new SubscriptionSpec("bench-counter", 2_000_000, OverflowPolicy.DROP_NEWEST, 4096,
                io.qubiq.tagbus.TagFilter.all(), check::accept));
        List<OpcUaTagConfig> tags = new ArrayList<>();
        for (int i = 0; i < options.tags; i++) {
            tags.add(new OpcUaTagConfig(paths.get(i).value(), "ns=2;s=" + OpcUaBenchServer.BenchNamespace.id(i),
                    options.samplingMs, options.queue, Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), false));
        }
        OpcUaConnectionConfig config = OpcUaConnectionConfig.of(endpoint, tags)
                .withPublishingIntervalMs(options.publishingMs)
                .withMaxItemsPerSubscription(options.itemsPerSubscription)
                .withRequestTimeoutMs(60_000);
        List<Window> windows = new ArrayList<>();
        long finalSequence;
        OpcUaStats stats;
        Map<TagPath, GrantedItem> granted;
        try (OpcUaConnector connector = new OpcUaConnector("bench", config)) {
            long t0 = System.nanoTime();
            connector.start(bus);
            await(() -> check.seen.get() == options.tags, Duration.ofMinutes(5), "every tag's first value");
            System.out.printf("subscribed: first value of all %,d tags after %.1f s%n", options.tags, secondsSince(t0));
            granted = connector.grantedItems();

            command("START");
            System.out.printf("warm-up %d s%n", options.warmupS);
            TimeUnit.SECONDS.sleep(options.warmupS);
            for (int r = 1; r <= options.repetitions; r++) {
                windows.add(measure(r, check));
            }
            command("STOP");
            finalSequence = Long.parseLong(awaitLine("STOPPED ", Duration.ofSeconds(60)).substring(8).trim());
            long stopped = System.nanoTime();
            boolean complete = awaitQuietly(() -> check.behind(finalSequence) == 0, Duration.ofSeconds(60));
            System.out.printf("server stopped at sequence %,d; %s %.1f s later%n", finalSequence,
                    complete ? "every tag reached it" : check.behind(finalSequence) + " tags had not reached it",
                    secondsSince(stopped));
            stats = connector.stats();
        } finally {
            bus.stop();
        }
        return report(windows, check, finalSequence, stats, granted, bus, loadStart);
    }

    private Window measure(int repetition, SequenceCheck check) throws InterruptedException {
        String load = Machine.loadAverage();
        long delivered0 = check.delivered.get();
        long lost0 = check.gaps.get();
        long cpu0 = OS.getProcessCpuTime();
        long serverCpu0 = serverCpuNanos();
        long gc0 = gcMillis();
        long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(options.measureS);
        double seconds = secondsSince(t0);
        Window window = new Window(repetition, seconds, check.delivered.get() - delivered0, check.gaps.get() - lost0,
                (OS.getProcessCpuTime() - cpu0) / 1e9 / seconds, (serverCpuNanos() - serverCpu0) / 1e9 / seconds,
                (gcMillis() - gc0) / 1000.0, load);
        System.out.printf("window %d: %,12.0f values/s delivered (%.3f of expected), %,d gaps, gateway JVM %.2f cores,"
                        + " server JVM %.2f cores, GC %.2f s, load %s%n", repetition, window.rate(),
                window.rate() / options.expectedPerSecond(), window.lost(), window.cores(), window.serverCores(),
                window.gcSeconds(), load);
        return window;
    }

    private boolean report(List<Window> windows, SequenceCheck check, long finalSequence, OpcUaStats stats,
                           Map<TagPath, GrantedItem> granted, TagBus bus, String loadStart) {
        double rate = windows.stream().mapToDouble(Window::rate).average().orElse(0);
        double cores = windows.stream().mapToDouble(Window::cores).average().orElse(0);
        double maxCores = windows.stream().mapToDouble(Window::cores).max().orElse(0);
        double serverCores = windows.stream().mapToDouble(Window::serverCores).average().orElse(0);
        SubscriberStats counter = bus.stats().subscribers().get(0);
        Optional<GrantedItem> sample = granted.values().stream().findFirst();
        System.out.println();
        System.out.println("| Measure | Value |");
        System.out.println("|---|---|");
        System.out.printf("| Values delivered to the tag bus, mean of %d x %d s | %,.0f values/s (%.3f of the %,.0f expected) |%n",
                windows.size(), options.measureS, rate, rate / options.expectedPerSecond(), options.expectedPerSecond());
        System.out.printf("| Gateway JVM CPU (connector + tag bus + counting subscriber) | %.2f cores mean, %.2f max (%.0f %% of one core) |%n",
                cores, maxCores, cores * 100);
        System.out.printf("| Server JVM CPU (Milo server, for scale) | %.2f cores |%n", serverCores);
        long never = check.neverReceived(finalSequence);
        System.out.printf("| Values lost over the whole run (sequence numbers that never arrived) | %,d |%n", never);
        System.out.printf("| Gaps seen on arrival / later filled (out of order) / repeated | %,d / %,d / %,d |%n",
                check.gaps.get(), check.outOfOrder.get(), check.repeated.get());
        System.out.printf("| Values flagged Overflow by the server / not Good / dropped by the tag bus | %,d / %,d / %,d |%n",
                check.overflowFlagged.get(), check.notGood.get(), counter.dropped());
        System.out.printf("| Tags short of the server's last value (%,d) at the end | %,d |%n", finalSequence,
                check.behind(finalSequence));
        System.out.printf("| Connector: values received, errors, reconnects, subscriptions re-created, notification"
                        + " messages lost | %,d, %d, %d, %d, %d |%n", stats.valuesReceived(), stats.errors(),
                stats.reconnects(), stats.subscriptionsRecreated(), stats.notificationsLost());
        sample.ifPresent(g -> System.out.printf("| Granted per item (first tag) | sampling %s ms, queue %s |%n",
                g.samplingIntervalMs().map(OpcUaThroughputHarness::fmt).orElse("?"),
                g.queueSize().map(String::valueOf).orElse("?")));
        System.out.printf("| Load average at start / end | %s / %s |%n", loadStart, Machine.loadAverage());
        boolean allDelivered = never == 0 && check.behind(finalSequence) == 0 && counter.dropped() == 0;
        System.out.println();
        System.out.println(allDelivered ? "RESULT: every value delivered" : "RESULT: values were lost");
        System.out.printf("RESULT: gateway CPU %.2f cores mean: %s the target of less than one core%n", cores,
                cores < 1.0 ? "within" : "above");
        return allDelivered;
    }

    // ------------------------------------------------------------------------------------------ the server JVM

    private String startServer() throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx" + options.serverHeap, "-XX:+UseG1GC",
                // the server's warnings go to its log file, like the harness's to stderr
                "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", ""),
                "-cp", System.getProperty("java.class.path"), OpcUaBenchServer.class.getName(),
                "--port", String.valueOf(port), "--variables", String.valueOf(options.tags),
                "--interval-ms", String.valueOf(options.intervalMs)));
        Path serverLog = logDir.resolve("opcua-bench-server.log");
        server = new ProcessBuilder(command).redirectError(serverLog.toFile()).start();
        serverIn = new OutputStreamWriter(server.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    serverOut.add(line);
                }
            } catch (IOException e) {
                // the server ended
            }
        }, "server-stdout");
        reader.setDaemon(true);
        reader.start();
        return awaitLine("READY ", Duration.ofMinutes(2)).substring(6).trim();
    }

    private void command(String line) throws IOException {
        serverIn.write(line + "\n");
        serverIn.flush();
    }

    private String awaitLine(String prefix, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            String line = serverOut.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !server.isAlive()) {
                throw new IllegalStateException("the server JVM exited with " + server.exitValue() + "; see "
                        + logDir.resolve("opcua-bench-server.log"));
            }
        }
        throw new IllegalStateException("no \"" + prefix + "\" from the server within " + limit);
    }

    private long serverCpuNanos() {
        return server.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private void stopServer() {
        Process running = server;
        if (running == null || !running.isAlive()) {
            return;
        }
        try {
            command("EXIT");
            if (!running.waitFor(15, TimeUnit.SECONDS)) {
                running.destroyForcibly();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            running.destroyForcibly(); // also when it is stopped before its stdin was opened
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static void await(java.util.function.BooleanSupplier condition, Duration limit, String what)
            throws InterruptedException {
        if (!awaitQuietly(condition, limit)) {
            throw new IllegalStateException("waited " + limit + " for " + what);
        }
    }

    private static boolean awaitQuietly(java.util.function.BooleanSupplier condition, Duration limit)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(100); // a bounded poll of a benchmark's progress, not a test
        }
        return true;
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(t -> t > 0).sum();
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    private static String fmt(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
