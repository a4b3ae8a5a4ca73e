package io.qubiq.benchmarks;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Messages per second through the gateway's MQTT path against the HiveMQ client publishing the same
 * messages directly, in one run against one mosquitto (a separate process, started for the run). A
 * {@link ThroughputHarness}, run by {@code scripts/bench-mqtt}, never by CI.
 *
 * <ul>
 *   <li><b>direct</b>: one MQTT 5 {@link Mqtt5AsyncClient} (clean start, no topic aliases, as the sink
 *       connects) publishes the N messages in windows of {@code --batch}: every message of a window is
 *       published asynchronously, then all its acknowledgements are awaited (QoS 1: PUBACK) before the
 *       next window. Timed from the first publish to the last acknowledgement.
 *   <li><b>gateway</b>: one producer thread submits the same N messages in batches of {@code --batch}
 *       to a {@link StoreForwardChannel} (segmented disk buffer, drop-oldest, fast path on) in front of
 *       an {@link MqttSink}. A submit returns once the batch is handed off to the forwarder in memory
 *       ({@link SubmitOutcome#HANDED_OFF}) or, while the hand-off is full, appended to the buffer
 *       ({@link SubmitOutcome#BUFFERED}); the harness counts both. Timed from the first submit until
 *       the channel reports all N delivered and nothing buffered ({@link ChannelDrain}). A dropped or
 *       quarantined message, or a delivered count other than N, fails the run.
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
public final class MqttThroughputHarness extends ThroughputHarness {

    static final class Options {
        int messages = 200_000;
        int repetitions = 3;
        int warmup = 50_000;
        int batch = 500;
        int payload = 100;
        int qos = 1;
        int brokerInflight = -1;
        Path dir = Path.of(System.getenv().getOrDefault("BENCH_DIR", "/work/bench-tmp"), "mqtt");

        static final String USAGE = """
                MqttThroughputHarness [--messages N] [--repetitions R] [--warmup W] [--batch B]
                    [--payload BYTES] [--qos Q] [--broker-inflight M] [--dir DIR]
                  N  messages per repetition and side (default 200k); R repetitions (3);
                  W  warm-up messages per side, not reported (50k; 0 = none);
                  B  messages per window (direct) and per submitted batch (gateway) (500);
                  BYTES approximate payload size (100); Q QoS 0, 1 or 2 (1);
                  M  mosquitto's max_inflight_messages (default: mosquitto's own);
                  DIR scratch directory for the channel's buffer, deleted after.
                  Counts accept k and m suffixes: 200k, 1m.""";

        static Options parse(String[] args) {
            Options o = new Options();
            CommandLine line = new CommandLine(args, USAGE);
            while (line.next()) {
                switch (line.flag()) {
                    case "--messages" -> o.messages = (int) line.count();
                    case "--repetitions" -> o.repetitions = line.integer();
                    case "--warmup" -> o.warmup = (int) line.count();
                    case "--batch" -> o.batch = line.integer();
                    case "--payload" -> o.payload = line.integer();
                    case "--qos" -> o.qos = line.integer();
                    case "--broker-inflight" -> o.brokerInflight = line.integer();
                    case "--dir" -> o.dir = line.path();
                    default -> throw line.unknown();
                }
            }
            if (o.messages < 1 || o.repetitions < 1 || o.batch < 1 || o.payload < 1 || o.qos < 0 || o.qos > 2) {
                throw new IllegalArgumentException("counts must be positive and the QoS 0, 1 or 2");
            }
            return o;
        }
    }

    record Run(String scenario, int repetition, long messages, double seconds, String load) implements TimedRun {
        @Override
        public double rate() {
            return messages / seconds;
        }
    }

    private final Options options;
    /** Volatile: the shutdown hook may stop it. */
    private volatile Mosquitto mosquitto;
    private Mqtt5AsyncClient directClient;
    private MqttSink sink;
    private StoreForwardChannel<MqttMessage> channel;
    private List<MqttMessage> repetitionMessages = List.of();
    private int messagesRepetition = -1;

    private MqttThroughputHarness(Options options) {
        super(options.dir, false);
        this.options = options;
    }

    public static void main(String[] args) {
        ThroughputHarness.main(args, a -> new MqttThroughputHarness(Options.parse(a)));
    }

    @Override
    protected String optionsLine() {
        return String.format("options: messages %,d, repetitions %d, warm-up %,d, batch %d, payload ~%d bytes, QoS %d,"
                        + " dir %s", options.messages, options.repetitions, options.warmup, options.batch,
                options.payload, options.qos, options.dir);
    }

    @Override
    protected void setUp() throws Exception {
        Mosquitto.Options brokerOptions = Mosquitto.Options.defaults();
        if (options.brokerInflight >= 0) {
            brokerOptions = brokerOptions.withMaxInflightMessages(options.brokerInflight);
        }
        mosquitto = Mosquitto.start(brokerOptions);
        System.out.printf("mosquitto pid %d on %s:%d (%s)%n%n", mosquitto.pid(), mosquitto.host(), mosquitto.port(),
                options.brokerInflight >= 0 ? "max_inflight_messages " + options.brokerInflight : "its default settings");
        directClient = connectDirectClient();
        startGateway();
    }

    @Override
    protected void tearDown() throws Exception {
        try {
            if (directClient != null) {
                directClient.disconnect().join();
            }
            if (channel != null) {
                channel.stop();
            }
            if (sink != null) {
                sink.close();
            }
        } finally {
            if (mosquitto != null) {
                mosquitto.close();
            }
        }
    }

    @Override
    protected boolean measure() throws Exception {
        if (options.warmup > 0) {
            List<MqttMessage> warm = messages("warm", options.warmup);
            log("warm-up: direct and gateway, %,d messages each (not reported)", options.warmup);
            direct("warm_direct", warm, 0);
            gateway("warm_gateway", warm, 0);
        }
        List<Run> runs = alternate(options.repetitions,
                r -> direct("rep" + r + "_direct", repetitionMessages(r), r),
                r -> gateway("rep" + r + "_gateway", repetitionMessages(r), r));
        report(runs, loadStart(), Machine.loadAverage());
        return true;
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

    /** The messages of repetition {@code r}: made once, the same objects for both sides. */
    private List<MqttMessage> repetitionMessages(int r) {
        if (messagesRepetition != r) {
            repetitionMessages = messages("rep" + r, options.messages);
            messagesRepetition = r;
        }
        return repetitionMessages;
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

    /**
     * Producer → StoreForwardChannel (fast path) → MqttSink → mosquitto. Each submit is counted by its
     * outcome: handed off to the forwarder in memory, or buffered while the hand-off was full.
     */
    private Run gateway(String name, List<MqttMessage> messages, int repetition) throws Exception {
        ChannelStatus before = channel.status();
        String load = Machine.loadAverage();
        int batch = options.batch;
        long handedOff = 0;
        long buffered = 0;
        long t0 = System.nanoTime();
        for (int from = 0; from < messages.size(); from += batch) {
            List<MqttMessage> slice = messages.subList(from, Math.min(messages.size(), from + batch));
            SubmitOutcome outcome = channel.submit(slice);
            switch (outcome) {
                case HANDED_OFF, DELIVERED -> handedOff += slice.size();
                case BUFFERED -> buffered += slice.size();
            }
        }
        ChannelStatus status = ChannelDrain.await(channel, before.itemsDelivered() + messages.size());
        double seconds = (System.nanoTime() - t0) / 1e9;
        long delivered = status.itemsDelivered() - before.itemsDelivered();
        if (status.itemsDropped() > before.itemsDropped() || status.itemsQuarantined() > before.itemsQuarantined()
                || delivered != messages.size()) {
            throw new IllegalStateException(name + ": not every message was delivered once (" + delivered + " of "
                    + messages.size() + "; " + handedOff + " handed off, " + buffered + " buffered): " + status);
        }
        log("%-16s %,10d messages %8.2f s %,10.0f msg/s (delivered %,d: %,d handed off, %,d buffered; load %s)", name,
                messages.size(), seconds, messages.size() / seconds, delivered, handedOff, buffered, load);
        return new Run("gateway", repetition, messages.size(), seconds, load);
    }

    private void report(List<Run> runs, String loadStart, String loadEnd) {
        System.out.println();
        System.out.println("=== MQTT throughput: channel -> MqttSink vs HiveMQ client direct, into mosquitto ===");
        System.out.printf("messages/rep %,d, repetitions %d, warm-up %,d, batch %d, payload ~%d bytes, QoS %d%n",
                options.messages, options.repetitions, options.warmup, options.batch, options.payload, options.qos);
        System.out.printf("%-8s %4s %10s %9s %11s %7s  %s%n", "side", "rep", "messages", "seconds", "msg/s", "ratio",
                "load avg at start");
        for (int r = 1; r <= options.repetitions; r++) {
            Run d = TimedRun.find(runs, "direct", r);
            Run g = TimedRun.find(runs, "gateway", r);
            row(d, null);
            row(g, g.rate() / d.rate());
        }
        System.out.printf("median direct %,.0f msg/s, gateway %,.0f msg/s; median of per-rep ratios %s%n",
                Medians.of(TimedRun.values(runs, "direct", Run::rate)),
                Medians.of(TimedRun.values(runs, "gateway", Run::rate)),
                TimedRun.Spread.of(TimedRun.ratios(runs, "gateway", "direct")));
        printLoadLine(loadStart, loadEnd);
    }

    private static void row(Run r, Double ratio) {
        System.out.printf("%-8s %4d %,10d %9.2f %,11.0f %7s  %s%n", r.scenario(), r.repetition(), r.messages(),
                r.seconds(), r.rate(), ratio == null ? "" : String.format("%.3f", ratio), r.load());
    }
}
