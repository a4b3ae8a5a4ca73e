package io.qubiq.benchmarks;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.InsertManyOptions;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.sink.mongodb.MongoDocument;
import io.qubiq.sink.mongodb.MongoSinkConfig;
import io.qubiq.sink.mongodb.MongoSinkFactory;
import io.qubiq.storeforward.ChannelBuilder;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.mongo.MongoTestServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/**
 * Throughput of the MongoDB outbound path against the driver used directly, in one run against one
 * server. A {@link ThroughputHarness}, run by {@code scripts/bench-mongodb}, never by CI.
 *
 * <ul>
 *   <li><b>direct</b>: N documents built as {@code org.bson.Document}s and written with
 *       {@code insertMany(batch, ordered: false)}, {@code --batch} documents per call, through a
 *       client with the sink's settings (write concern majority, retries off); timed until the last
 *       call returned.
 *   <li><b>gateway</b>: the same N documents built as {@link MongoDocument}s (INSERT, {@code _id} =
 *       item id) and handed to a {@link StoreForwardChannel} ({@code --batch} per submit; segmented
 *       disk buffer, durability periodic, policy refuse, fast path on: the defaults of a MongoDB
 *       connection) in front of the {@code MongoSink}; timed until the channel reports every document
 *       delivered and nothing buffered ({@link ChannelDrain}). The channel is started once for the run, as a connection's is.
 *   <li><b>buffered</b> (unless {@code --no-buffered}): as gateway with the fast path off, so every
 *       document goes through the disk buffer and the forwarder thread (the path a backlog drains
 *       by). Forwarder batch = {@code --batch}, linger 20 ms.
 * </ul>
 *
 * A repetition writes N documents per scenario in chunks of {@code --chunk} (default 10,000):
 * chunk by chunk every scenario takes its turn, the order rotating with each chunk, and a scenario's
 * time is the sum of its chunks, so a drift in the machine's load hits every side alike. Each
 * scenario writes a collection of its own per repetition, counted afterwards (outside the timing)
 * and dropped.
 * Ratio = gateway / direct of the same repetition. The server is mongo-java-server with its memory
 * backend in this JVM (testkit {@link MongoTestServer}), or a real MongoDB given with {@code --uri}.
 */
public final class MongoThroughputHarness extends ThroughputHarness {

    private static final String DATABASE = "qubiq_bench";
    private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

    private final Options options;
    /** Volatile: the shutdown hook may stop them. */
    private volatile MongoTestServer server;
    private volatile MongoClient client;
    private volatile Gateway gateway;
    private volatile Gateway buffered;
    private String uri;
    private List<String> scenarios;

    private MongoThroughputHarness(Options options) {
        super(options.dir, false);
        this.options = options;
    }

    // ------------------------------------------------------------------------------------------ options

    static final class Options {
        long documents = 200_000;
        int repetitions = 3;
        long warmup = 50_000;
        int batch = 500;
        long chunk = 10_000;
        boolean buffered = true;
        Optional<String> uri = Optional.empty();
        Path dir = Path.of(System.getenv().getOrDefault("BENCH_DIR", "/work/bench-tmp"), "mongodb");

        static final String USAGE = """
                MongoThroughputHarness [--documents N] [--repetitions R] [--warmup W] [--batch B]
                    [--chunk C] [--no-buffered] [--uri mongodb://...] [--dir DIR]
                  N  documents per scenario and repetition (default 200k); R repetitions (default 3);
                  W  warm-up documents per scenario (default 50k, 0 = none);
                  B  documents per insertMany / per submit / per forwarder batch (default 500);
                  C  documents per interleaved chunk (default 10k; = N for whole scenarios);
                  --no-buffered  skip the fast-path-off scenario;
                  --uri  a real MongoDB instead of the in-process mongo-java-server (database
                         qubiq_bench; its collections are dropped);
                  DIR scratch directory for the channels' buffers, deleted after.
                  Counts accept k and m suffixes: 200k, 1m.""";

        static Options parse(String[] args) {
            Options o = new Options();
            CommandLine line = new CommandLine(args, USAGE);
            while (line.next()) {
                switch (line.flag()) {
                    case "--documents" -> o.documents = line.count();
                    case "--repetitions" -> o.repetitions = line.integer();
                    case "--warmup" -> o.warmup = line.count();
                    case "--batch" -> o.batch = line.integer();
                    case "--chunk" -> o.chunk = line.count();
                    case "--no-buffered" -> o.buffered = false;
                    case "--uri" -> o.uri = Optional.of(line.text());
                    case "--dir" -> o.dir = line.path();
                    default -> throw line.unknown();
                }
            }
            if (o.documents < 1 || o.repetitions < 1 || o.batch < 1 || o.warmup < 0 || o.chunk < 1) {
                throw new IllegalArgumentException("counts must be positive");
            }
            return o;
        }
    }

    record Run(String scenario, int repetition, long documents, double seconds, String load) implements TimedRun {
        @Override
        public double rate() {
            return documents / seconds;
        }
    }

    // ------------------------------------------------------------------------------------------ main

    public static void main(String[] args) {
        ThroughputHarness.main(args, a -> new MongoThroughputHarness(Options.parse(a)));
    }

    @Override
    protected String optionsLine() {
        return String.format("options: documents %,d, chunk %,d, repetitions %d, warm-up %,d, batch %d, buffered"
                        + " scenario %s, dir %s", options.documents, options.chunk, options.repetitions, options.warmup,
                options.batch, options.buffered, options.dir);
    }

    @Override
    protected void setUp() throws Exception {
        if (options.uri.isPresent()) {
            uri = options.uri.get();
            System.out.println("server: " + new ConnectionString(uri).getHosts() + " (given with --uri)");
        } else {
            server = MongoTestServer.onFreePort().start();
            uri = server.connectionString();
            System.out.println("server: mongo-java-server 1.47.0, memory backend, in this JVM, " + uri);
        }
        scenarios = new ArrayList<>(List.of("direct", "gateway"));
        if (options.buffered) {
            scenarios.add("buffered");
        }
        client = MongoClients.create(directSettings());
        gateway = Gateway.start(options.dir.resolve("gateway"), uri, options.batch, true);
        buffered = Gateway.start(options.dir.resolve("buffered"), uri, options.batch, false);
    }

    @Override
    protected void tearDown() {
        if (buffered != null) {
            buffered.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected boolean measure() {
        client.getDatabase(DATABASE).drop();
        if (options.warmup > 0) {
            log("warm-up: %s, %,d documents each (not reported)", scenarios, options.warmup);
            repetition(client, scenarios, 0, options.warmup);
        }
        List<Run> runs = new ArrayList<>();
        for (int r = 1; r <= options.repetitions; r++) {
            runs.addAll(repetition(client, scenarios, r, options.documents));
        }
        client.getDatabase(DATABASE).drop();
        report(runs, scenarios, loadStart(), Machine.loadAverage());
        return true;
    }

    /**
     * n documents per scenario, written in chunks of {@code --chunk}: chunk by chunk every scenario
     * takes its turn, the order rotating with each chunk, and each scenario's time is the sum of its
     * chunks. On a machine whose load drifts by the second, every side sees the same drift.
     */
    private List<Run> repetition(MongoClient client, List<String> scenarios, int repetition, long n) {
        System.gc();
        String load = Machine.loadAverage();
        Map<String, Double> seconds = new LinkedHashMap<>();
        scenarios.forEach(scenario -> seconds.put(scenario, 0.0));
        long chunks = (n + options.chunk - 1) / options.chunk;
        for (long c = 0; c < chunks; c++) {
            long from = c * options.chunk;
            long count = Math.min(options.chunk, n - from);
            for (int k = 0; k < scenarios.size(); k++) {
                String scenario = scenarios.get((int) ((k + c + repetition) % scenarios.size()));
                String collection = scenario + "_r" + repetition;
                double time = switch (scenario) {
                    case "direct" -> direct(client, collection, from, count);
                    case "gateway" -> gateway.write(collection, from, count);
                    case "buffered" -> buffered.write(collection, from, count);
                    default -> throw new IllegalArgumentException(scenario);
                };
                seconds.merge(scenario, time, Double::sum);
            }
        }
        List<Run> runs = new ArrayList<>();
        for (String scenario : scenarios) {
            MongoCollection<Document> written = client.getDatabase(DATABASE).getCollection(scenario + "_r" + repetition);
            long stored = written.countDocuments();
            written.drop();
            if (stored != n) {
                throw new IllegalStateException(written.getNamespace() + " holds " + stored + " documents, expected " + n);
            }
            double s = seconds.get(scenario);
            log("%-9s rep %d: %,d documents in %.2f s = %,.0f documents/s (load %s)", scenario, repetition, n, s, n / s,
                    load);
            runs.add(new Run(scenario, repetition, n, s, load));
        }
        return runs;
    }

    // ------------------------------------------------------------------------------------------ scenarios

    /** The sink's own driver settings, for the direct writer: majority, no retries. */
    private MongoClientSettings directSettings() {
        return MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(uri))
                .retryWrites(false)
                .retryReads(false)
                .writeConcern(WriteConcern.MAJORITY)
                .applyToClusterSettings(b -> b.serverSelectionTimeout(5, TimeUnit.SECONDS))
                .applyToSocketSettings(b -> b.connectTimeout(5, TimeUnit.SECONDS).readTimeout(30, TimeUnit.SECONDS))
                .build();
    }

    private double direct(MongoClient client, String collection, long from, long count) {
        MongoCollection<Document> target = client.getDatabase(DATABASE).getCollection(collection);
        InsertManyOptions unordered = new InsertManyOptions().ordered(false);
        int batch = options.batch;
        long end = from + count;
        long t0 = System.nanoTime();
        List<Document> documents = new ArrayList<>(batch);
        for (long i = from; i < end; i++) {
            Document document = new Document("_id", itemId(i));
            for (Map.Entry<String, Object> field : fields(i).entrySet()) {
                document.append(field.getKey(), field.getValue());
            }
            documents.add(document);
            if (documents.size() == batch || i == end - 1) {
                target.insertMany(documents, unordered);
                documents = new ArrayList<>(batch);
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * One outbound MongoDB connection as the gateway runs it: a channel (segmented disk buffer,
     * durability periodic, policy refuse) in front of a {@code MongoSink}, started once for the whole
     * run (segment files are prepared at start, outside every timing) and stopped at the end.
     */
    private record Gateway(StoreForwardChannel<MongoDocument> channel, Path dir, int batch) implements AutoCloseable {

        static Gateway start(Path dir, String uri, int batch, boolean fastPath) throws Exception {
            BenchFiles.deleteQuietly(dir);
            MongoSinkFactory factory = new MongoSinkFactory();
            ChannelConfig config = ChannelConfig.defaults()
                    .withBatch(batch, 20)
                    .withBackoff(100, 500)
                    .withFastPath(fastPath);
            StoreForwardChannel<MongoDocument> channel = ChannelBuilder.of("mongodb", config,
                            factory.create("mongodb", MongoSinkConfig.of(uri, DATABASE)), factory.codec())
                    .overflowDefault(OverflowPolicy.REFUSE).inDirectory(dir).events(EventPublisher.none()).build();
            channel.start();
            return new Gateway(channel, dir, batch);
        }

        /** Submits documents from..from+count-1 to {@code collection}; the seconds until all are delivered. */
        double write(String collection, long from, long count) {
            long before = channel.status().itemsDelivered();
            long end = from + count;
            long t0 = System.nanoTime();
            List<MongoDocument> documents = new ArrayList<>(batch);
            try {
                for (long i = from; i < end; i++) {
                    documents.add(MongoDocument.insert(itemId(i), collection, fields(i)));
                    if (documents.size() == batch || i == end - 1) {
                        channel.submit(documents);
                        documents = new ArrayList<>(batch);
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException("the channel refused documents: " + e, e);
            }
            ChannelStatus status = ChannelDrain.await(channel, before + count);
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (status.itemsQuarantined() != 0 || status.itemsDropped() != 0) {
                throw new IllegalStateException(collection + ": documents quarantined or dropped: " + status);
            }
            return seconds;
        }

        @Override
        public void close() {
            try {
                channel.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                System.err.println("stopping the channel in " + dir + ": " + e);
            }
            BenchFiles.deleteQuietly(dir);
        }
    }

    /** The same documents on both sides: a process value as a pipeline would write it. */
    private static Map<String, Object> fields(long i) {
        Instant source = T0.plusMillis(i);
        Map<String, Object> fields = new LinkedHashMap<>(16);
        fields.put("tag", "plant1/line" + (i % 7) + "/sensor" + (i % 300));
        fields.put("value", (i % 10_000) * 0.25 - 1000.0);
        fields.put("quality", 192);
        fields.put("seq", i);
        fields.put("source_ts", source);
        fields.put("server_ts", source.plusMillis(3));
        fields.put("unit", "bar");
        fields.put("alarm", i % 97 == 0);
        return fields;
    }

    private static String itemId(long i) {
        return "item-" + i;
    }

    // ------------------------------------------------------------------------------------------ report

    private void report(List<Run> runs, List<String> scenarios, String loadStart, String loadEnd) {
        System.out.println();
        System.out.println("=== MongoDB throughput: StoreForwardChannel -> MongoSink vs the driver's insertMany ===");
        System.out.printf("documents/scenario/rep %,d in chunks of %,d, repetitions %d, warm-up %,d, batch %d, server %s%n",
                options.documents, options.chunk, options.repetitions, options.warmup, options.batch,
                server == null ? "--uri" : "mongo-java-server (in-process)");
        System.out.printf("%-9s %4s %10s %8s %12s %8s  %s%n", "scenario", "rep", "documents", "seconds", "docs/s",
                "ratio", "load avg at start");
        for (int r = 1; r <= options.repetitions; r++) {
            Run direct = TimedRun.find(runs, "direct", r);
            for (String scenario : scenarios) {
                Run run = TimedRun.find(runs, scenario, r);
                String ratio = scenario.equals("direct") ? "" : String.format("%.3f", run.rate() / direct.rate());
                System.out.printf("%-9s %4d %,10d %8.2f %,12.0f %8s  %s%n", scenario, r, run.documents, run.seconds,
                        run.rate(), ratio, run.load);
            }
        }
        for (String scenario : scenarios) {
            System.out.printf("median %-9s %,12.0f docs/s", scenario, Medians.of(TimedRun.values(runs, scenario,
                    Run::rate)));
            if (!scenario.equals("direct")) {
                System.out.printf("; %s / direct per rep: median %s", scenario,
                        TimedRun.Spread.of(TimedRun.ratios(runs, scenario, "direct")));
            }
            System.out.println();
        }
        printLoadLine(loadStart, loadEnd);
    }
}
