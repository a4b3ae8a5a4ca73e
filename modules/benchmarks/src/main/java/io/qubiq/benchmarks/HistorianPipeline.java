package io.qubiq.benchmarks;

import io.qubiq.buffer.Durability;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.historian.Historian;
import io.qubiq.historian.HistorianChannels;
import io.qubiq.historian.HistorianConfig;
import io.qubiq.historian.HistorianStatus;
import io.qubiq.historian.StorageMode;
import io.qubiq.historian.StorageRule;
import io.qubiq.historian.ValueTable;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.SubscriberStats;
import io.qubiq.tagbus.TagBus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The gateway side of {@link HistorianThroughputHarness}: a tag bus, the historian (storage rule
 * {@code always}) and its store-and-forward channel ({@code durability: none}) in front of the
 * QuestDB sink, as the gateway wires them (with the harness's {@link DrainValve} between channel and
 * sink), plus the harness's publisher standing in for a connector
 * and the checks that no sample was lost. One serves a whole run.
 */
record HistorianPipeline(TagBus bus, StoreForwardChannel<QuestDbRow> channel, DrainValve valve,
                         Historian historian, HistorianConfig config) {

    /** The gateway identity of every row the historian writes; the direct writer writes it too. */
    static final String GATEWAY = "benchmark";

    /** Starts bus, historian and channel writing tables {@code <prefix>_*} at {@code ilpAddress}. */
    static HistorianPipeline start(String ilpAddress, HistorianOptions options, String prefix,
                                   Path channelDir, long maxBytes) throws Exception {
        BenchFiles.deleteQuietly(channelDir);
        int batch = options.batch;
        ChannelConfig channelConfig = ChannelConfig.defaults()
                .withMaxBytes(maxBytes)
                .withDurability(Durability.NONE)
                .withBatch(batch, 20)
                .withBackoff(100, 500);
        HistorianConfig defaults = HistorianConfig.defaults();
        HistorianConfig config = defaults
                .withLiveTailSamplesPerTag(options.liveTail < 0 ? defaults.liveTailSamplesPerTag() : options.liveTail)
                .withTablePrefix(prefix)
                .withBatching(batch, 100)
                .withRules(StorageRule.defaults().withMode(StorageMode.ALWAYS), List.of())
                .withStoreAndForward(channelConfig);
        QuestDbSinkConfig sinkConfig = QuestDbSinkConfig.of(ilpAddress);
        Clock clock = Clock.systemUTC();
        DrainValve valve = new DrainValve(HistorianChannels.sink("historian", config, sinkConfig, clock));
        StoreForwardChannel<QuestDbRow> channel = HistorianChannels.channel("historian", config, valve, channelDir,
                Liveness.alwaysUnknown(), EventPublisher.none(), clock);
        channel.start();
        TagBus bus = new TagBus();
        Historian historian = new Historian(config, GATEWAY, bus, channel,
                HistorianChannels.execClient(config, sinkConfig), clock);
        historian.start();
        bus.start();
        return new HistorianPipeline(bus, channel, valve, historian, config);
    }

    /** The value of sample (or direct row) {@code i}: the same on both sides. */
    static double value(long i) {
        return (i % 10_000) * 0.25 - 1000.0;
    }

    /** The history table the samples land in. */
    String table() {
        return historian.schema().table(ValueTable.DOUBLE);
    }

    /**
     * Publishes n samples, round-robin over {@code paths}, one microsecond apart from {@code
     * firstMicros}. Paced on the historian's tag-bus queue, so drop-oldest never triggers: above half
     * its capacity the publisher waits until the historian has worked it down to a quarter, in steps of
     * 5 ms. The waits are few and long on purpose: this pacing stands in for a connector and must not
     * cost CPU of its own (an earlier version parked 200 µs at a time and read the bus statistics after
     * each wake-up, some 25 times per 1,024 samples, all of it counted as the gateway's CPU).
     */
    void publish(TagPath[] paths, long firstMicros, long n) {
        int high = config.queueCapacityValues() / 2;
        int low = config.queueCapacityValues() / 4;
        for (long i = 0; i < n; i++) {
            if ((i & 1023) == 0 && queued() > high) {
                do {
                    LockSupport.parkNanos(5_000_000);
                } while (queued() > low);
            }
            long micros = firstMicros + i;
            Instant ts = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
            bus.publish(new TagValue(paths[(int) (i % paths.length)], value(i), DataType.FLOAT64, Quality.GOOD, ts,
                    ts));
        }
    }

    private int queued() {
        int max = 0;
        for (SubscriberStats s : bus.stats().subscribers()) {
            max = Math.max(max, s.queued());
        }
        return max;
    }

    /** Waits until the historian has handed on {@code total} samples so far and the channel holds n items. */
    void awaitBuffered(long total, long n) {
        long deadline = System.nanoTime() + 600_000_000_000L;
        while (true) {
            HistorianStatus hs = historian.status();
            ChannelStatus cs = channel.status();
            if (hs.rowsSubmitted() + hs.rowsRejected() >= total && hs.rowsPending() == 0 && cs.bufferedItems() >= n) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("backlog not complete after 10 min: " + hs + " " + cs);
            }
            LockSupport.parkNanos(20_000_000);
        }
    }

    /** Fails unless the historian stored exactly {@code total} samples so far and nothing was lost. */
    void check(long total, String what) {
        HistorianStatus hs = historian.status();
        ChannelStatus cs = channel.status();
        if (hs.queueDropped() != 0 || hs.valuesFiltered() != 0 || hs.rowsRejected() != 0 || cs.itemsDropped() != 0
                || hs.samplesStored() != total || cs.itemsQuarantined() != 0) {
            throw new IllegalStateException(what + ": samples lost or filtered: " + hs + " " + cs);
        }
    }

    void stop() {
        try {
            historian.stop();
        } catch (Exception e) {
            System.err.println("historian stop: " + e);
        }
        try {
            bus.stop();
        } catch (Exception e) {
            System.err.println("bus stop: " + e);
        }
        try {
            channel.stop();
        } catch (Exception e) {
            System.err.println("channel stop: " + e);
        }
    }
}
