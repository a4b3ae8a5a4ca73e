package io.qubiq.benchmarks;

import static io.qubiq.benchmarks.Counts.count;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PublishResult;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.sink.mqtt.MqttMessage;
import io.qubiq.sink.mqtt.MqttMessageCodec;
import io.qubiq.sink.mqtt.MqttSink;
import io.qubiq.sink.mqtt.MqttSinkConfig;
import io.qubiq.storeforward.ChannelBuilder;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.SubmitOutcome;
import io.qubiq.testkit.mqtt.Mosquitto;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * Messages per second through the gateway's MQTT path against the HiveMQ client publishing the same
 * messages directly, in one run against one mosquitto (a separate process, started for the run). A
 * plain {@code main}, run by {@code scripts/bench-mqtt}, never by CI.
 *
 * <ul>
 *   <li><b>direct</b>: one MQTT 5 {@link Mqtt5AsyncClient} (clean start, no topic aliases, as the sink
 *       connects) publishes the N messages in windows of {@code --batch}: every message of a window is
 *       published asynchronously, then all its acknowledgements are awaited (QoS 1: PUBACK) before the
 *       next window. Timed from the first publish to the last acknowledgement.
 *   <li><b>gateway</b>: one producer thread submits the same N messages in batches of {@code --batch}
 *       to a {@link StoreForwardChannel} (segmented disk buffer, drop-oldest, fast path on) in front of
 *       an {@link MqttSink}; each submit returns when the sink's write returned, that is when every
 *       message of the batch was acknowledged. Timed from the first submit until the channel reports
 *       all N delivered and nothing buffered. Any buffered, dropped or quarantined message fails the run.
 * </ul>
 *
 * Both sides are set up once for the run, as in a running gateway: the direct client connected, the
 * channel started with its sink (whose lazy connect and the buffer's first segment preparation fall in
 * the warm-up).
 *
 * Ratio = gateway / direct of the same repetition; repetitions alternate which side goes first. The
 * messages are made before timing (about {@code --payload} bytes of JSON each, on 100 topics) and
 * are the same objects for both sides; each side turns them into the client's publishes inside the
 * timed loop.
 */
public final class MqttThroughputHarness {

    static final class Options {
        int messages = 200_000;
        int repetitions = 3;
        int warmup = 50_000;
        int batch = 500;
        int payload = 100;
        int qos = 1;
        int brokerInflight = -1;
        Path dir = Path.of(System.getenv().getOrDefault("BENCH_DIR", "/work/bench-tmp"), "mqtt");

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--messages" -> o.messages = (int) count(args[++i]);
                    case "--repetitions" -> o.repetitions = Integer.parseInt(args[++i]);
                    case "--warmup" -> o.warmup = (int) count(args[++i]);
                    case "--batch" -> o.batch = Integer.parseInt(args[++i]);
                    case "--payload" -> o.payload = Integer.parseInt(args[++i]);
                    case "--qos" -> o.qos = Integer.parseInt(args[++i]);
                    case "--broker-inflight" -> o.brokerInflight = Integer.parseInt(args[++i]);
                    case "--dir" -> o.dir = Path.of(args[++i]);
                    case "-h", "--help" -> {
                        System.out.println("""
                                MqttThroughputHarness [--messages N] [--repetitions R] [--warmup W] [--batch B]
                                    [--payload BYTES] [--qos Q] [--broker-inflight M] [--dir DIR]
                                  N  messages per repetition and side (default 200k); R repetitions (3);
                                  W  warm-up messages per side, not reported (50k; 0 = none);
                                  B  messages per window (direct) and per submitted batch (gateway) (500);
                                  BYTES approximate payload size (100); Q QoS 0, 1 or 2 (1);
                                  M  mosquitto's max_inflight_messages (default: mosquitto's own);
                                  DIR scratch directory for the channel's buffer, deleted after.
                                  Counts accept k and m suffixes: 200k, 1m.""");
                        System.exit(0);
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + a + " (try --help)");
                }
            }
            if (o.messages < 1 || o.repetitions < 1 || o.batch < 1 || o.payload < 1 || o.qos < 0 || o.qos > 2) {
                throw new IllegalArgumentException("counts must be positive and the QoS 0, 1 or 2");
            }
            return o;
        }
    }

    record Run(String side, int repetition, long messages, double seconds, String load) {
        double rate() {
            return messages / seconds;
        }
    }

    private final Options options;
    private Mosquitto mosquitto;
    private Mqtt5AsyncClient directClient;
    private MqttSink sink;
    private StoreForwardChannel<MqttMessage> channel;

    private MqttThroughputHarness(Options options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        MqttThroughputHarness harness = new MqttThroughputHarness(options);
        Thread hook = new Thread(harness::stopBroker, "harness-stop-mosquitto");
        Runtime.getRuntime().addShutdownHook(hook);
        int status = 0;
        try {
            harness.run();
        } catch (Throwable t) {
            System.err.println("HARNESS FAILED: " + t);
            t.printStackTrace();
            status = 1;
        } finally {
            harness.stopBroker();
            BenchFiles.deleteQuietly(options.dir);
        }
        Runtime.getRuntime().removeShutdownHook(hook);
        System.exit(status);
    }

    private synchronized void stopBroker() {
        if (mosquitto != null) {
            mosquitto.close();
            mosquitto = null;
        }
    }

    private void run() throws Exception {
        printFacts(Machine.loadAverage());
        BenchFiles.deleteQuietly(options.dir);
        Files.createDirectories(options.dir);
        Mosquitto.Options brokerOptions = Mosquitto.Options.defaults();
        if (options.brokerInflight >= 0) {
            brokerOptions = brokerOptions.withMaxInflightMessages(options.brokerInflight);
        }
        synchronized (this) {
            mosquitto = Mosquitto.start(brokerOptions);
        }
        System.out.printf("mosquitto pid %d on %s:%d (%s)%n%n", mosquitto.pid(), mosquitto.host(), mosquitto.port(),
                options.brokerInflight >= 0 ? "max_inflight_messages " + options.brokerInflight : "its default settings");

        directClient = connectDirectClient();
        startGateway();
        try {
            measure();
        } finally {
            directClient.disconnect().join();
            channel.stop();
            sink.close();
        }
    }

    private void measure() throws Exception {
        String loadStart = Machine.loadAverage();
        if (options.warmup > 0) {
            List<MqttMessage> warm = messages("warm", options.warmup);
            log("warm-up: direct and gateway, %,d messages each (not reported)", options.warmup);
            direct("warm_direct", warm, 0);
            gateway("warm_gateway", warm, 0);
        }
        List<Run> runs = new ArrayList<>();
        for (int r = 1; r <= options.repetitions; r++) {
            List<MqttMessage> messages = messages("rep" + r, options.messages);
            if (r % 2 == 1) {
                runs.add(direct("rep" + r + "_direct", messages, r));
                runs.add(gateway("rep" + r + "_gateway", messages, r));
            } else {
                runs.add(gateway("rep" + r + "_gateway", messages, r));
                runs.add(direct("rep" + r + "_direct", messages, r));
            }
        }
        report(runs, loadStart, Machine.loadAverage());
    }

    /**
     * The direct side's client, connected once for the whole run as the sink's is: MQTT 5, clean start,
     * no topic aliases, as the sink connects.
     */
    private Mqtt5AsyncClient connectDirectClient() {
        Mqtt5AsyncClient client = MqttClient.builder().useMqttVersion5()
                .identifier("bench-direct-" + UUID.randomUUID())
                .serverHost(mosquitto.host()).serverPort(mosquitto.port())
                .buildAsync();
        Mqtt5ConnAck connAck = client.connectWith().cleanStart(true).sessionExpiryInterval(0)
                .restrictions().sendTopicAliasMaximum(0).applyRestrictions()
                .send().join();
        log("broker announced receive maximum %d, maximum packet size %d", connAck.getRestrictions().getReceiveMaximum(),
                connAck.getRestrictions().getMaximumPacketSize());
        return client;
    }

    /**
     * The gateway side, started once for the whole run as in the gateway: the channel (segmented disk
     * buffer, drop-oldest, fast path) and its sink, which connects on the first write (in the warm-up).
     */
    private void startGateway() throws Exception {
        Path dir = options.dir.resolve("channel");
        ChannelConfig config = ChannelConfig.defaults().withMaxBytes(1L << 30).withDurability(Durability.NONE)
                .withBatch(options.batch, 20).withBackoff(100, 500);
        sink = new MqttSink("bench", MqttSinkConfig.of(mosquitto.host(), mosquitto.port())
                .withClientId("bench-gateway-" + UUID.randomUUID()));
        channel = ChannelBuilder.of("bench", config, sink, new MqttMessageCodec())
                .overflowDefault(OverflowPolicy.DROP_OLDEST).inDirectory(dir).events(EventPublisher.none()).build();
        channel.start();
    }

    /** N messages on 100 topics, payloads of about {@code --payload} bytes of JSON with a sequence number. */
    private List<MqttMessage> messages(String prefix, int n) {
        List<MqttMessage> messages = new ArrayList<>(n);
        String padding = "x".repeat(Math.max(0, options.payload - 40));
        for (int i = 0; i < n; i++) {
            String topic = "bench/" + prefix + "/line" + (i % 10) + "/sensor" + (i % 100);
            String payload = "{\"seq\":" + i + ",\"v\":" + ((i % 1000) * 0.25) + ",\"pad\":\"" + padding + "\"}";
            messages.add(new MqttMessage(topic, payload.getBytes(StandardCharsets.UTF_8), options.qos, false));
        }
        return messages;
    }

    /** The HiveMQ client alone: windows of --batch publishes, each window's acknowledgements awaited. */
    private Run direct(String name, List<MqttMessage> messages, int repetition) {
        Mqtt5AsyncClient client = directClient;
        // the payload bytes as the sink reads them, without the copy MqttMessage.payload() makes
        byte[][] payloads = new byte[messages.size()][];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = messages.get(i).payload();
        }
        String load = Machine.loadAverage();
        int batch = options.batch;
        long t0 = System.nanoTime();
        try {
            List<CompletableFuture<Mqtt5PublishResult>> window = new ArrayList<>(batch);
            for (int from = 0; from < messages.size(); from += batch) {
                int to = Math.min(messages.size(), from + batch);
                window.clear();
                for (int i = from; i < to; i++) {
                    MqttMessage m = messages.get(i);
                    window.add(client.publish(Mqtt5Publish.builder()
                            .topic(m.topic())
                            .qos(MqttQos.fromCode(m.qos()))
                            .retain(m.retain())
                            .payload(payloads[i])
                            .build()));
                }
                CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).join();
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException(name + ": a publish failed", e);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        log("%-16s %,10d messages %8.2f s %,10.0f msg/s (load %s)", name, messages.size(), seconds,
                messages.size() / seconds, load);
        return new Run("direct", repetition, messages.size(), seconds, load);
    }

    /** Producer → StoreForwardChannel (fast path) → MqttSink → mosquitto. */
    private Run gateway(String name, List<MqttMessage> messages, int repetition) throws Exception {
        ChannelStatus before = channel.status();
        String load = Machine.loadAverage();
        int batch = options.batch;
        int buffered = 0;
        long t0 = System.nanoTime();
        for (int from = 0; from < messages.size(); from += batch) {
            List<MqttMessage> slice = messages.subList(from, Math.min(messages.size(), from + batch));
            if (channel.submit(slice) == SubmitOutcome.BUFFERED) {
                buffered += slice.size();
            }
        }
        while (true) {
            ChannelStatus status = channel.status();
            if (status.bufferedItems() == 0 && status.itemsDelivered() - before.itemsDelivered() >= messages.size()) {
                break;
            }
            LockSupport.parkNanos(1_000_000);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        ChannelStatus status = channel.status();
        long delivered = status.itemsDelivered() - before.itemsDelivered();
        if (buffered > 0 || status.itemsDropped() > 0 || status.itemsQuarantined() > 0 || delivered != messages.size()) {
            throw new IllegalStateException(name + ": not every message took the fast path and was delivered once ("
                    + buffered + " buffered): " + status);
        }
        log("%-16s %,10d messages %8.2f s %,10.0f msg/s (delivered %,d, all on the fast path; load %s)", name,
                messages.size(), seconds, messages.size() / seconds, delivered, load);
        return new Run("gateway", repetition, messages.size(), seconds, load);
    }

    private void report(List<Run> runs, String loadStart, String loadEnd) {
        System.out.println();
        System.out.println("=== MQTT throughput: channel -> MqttSink vs HiveMQ client direct, into mosquitto ===");
        System.out.printf("messages/rep %,d, repetitions %d, warm-up %,d, batch %d, payload ~%d bytes, QoS %d%n",
                options.messages, options.repetitions, options.warmup, options.batch, options.payload, options.qos);
        System.out.printf("%-8s %4s %10s %9s %11s %7s  %s%n", "side", "rep", "messages", "seconds", "msg/s", "ratio",
                "load avg at start");
        List<Double> ratios = new ArrayList<>();
        for (int r = 1; r <= options.repetitions; r++) {
            Run d = find(runs, "direct", r);
            Run g = find(runs, "gateway", r);
            row(d, null);
            row(g, g.rate() / d.rate());
            ratios.add(g.rate() / d.rate());
        }
        System.out.printf("median direct %,.0f msg/s, gateway %,.0f msg/s; median of per-rep ratios %.3f (min %.3f,"
                        + " max %.3f)%n",
                Medians.of(runs.stream().filter(x -> x.side().equals("direct")).map(Run::rate).toList()),
                Medians.of(runs.stream().filter(x -> x.side().equals("gateway")).map(Run::rate).toList()),
                Medians.of(ratios), Collections.min(ratios), Collections.max(ratios));
        System.out.printf("%nload average at start %s, at end %s; nproc %d%n", loadStart, loadEnd,
                Runtime.getRuntime().availableProcessors());
    }

    private static void row(Run r, Double ratio) {
        System.out.printf("%-8s %4d %,10d %9.2f %,11.0f %7s  %s%n", r.side(), r.repetition(), r.messages(), r.seconds(),
                r.rate(), ratio == null ? "" : String.format("%.3f", ratio), r.load());
    }

    private static Run find(List<Run> runs, String side, int repetition) {
        return runs.stream().filter(r -> r.side().equals(side) && r.repetition() == repetition).findFirst().orElseThrow();
    }

    private void printFacts(String load) {
        Runtime rt = Runtime.getRuntime();
        System.out.println("=== MqttThroughputHarness ===");
        System.out.printf("started %s UTC; nproc %d; load average %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                rt.availableProcessors(), load);
        System.out.printf("JVM %s %s; max heap %.2f GiB; args %s%n", System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), rt.maxMemory() / (double) (1L << 30),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        System.out.printf("options: messages %,d, repetitions %d, warm-up %,d, batch %d, payload ~%d bytes, QoS %d, dir %s%n",
                options.messages, options.repetitions, options.warmup, options.batch, options.payload, options.qos,
                options.dir);
    }

    private static void log(String format, Object... args) {
        System.out.printf("[%s] %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS), String.format(format, args));
    }
}
