package io.qubiq.historian;

import io.qubiq.historian.query.HistoryQuery;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.TagBus;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * A real historian wired as the application wires it: tag bus, historian, its store-and-forward
 * channel (disk buffer, file quarantine) from {@link HistorianChannels}, and a real QuestDB.
 * Small buffers and short backoffs so tests run fast.
 */
final class HistorianHarness implements AutoCloseable {

    final QuestDbServer questDb;
    final HistorianConfig config;
    final RecordingEvents events = new RecordingEvents();
    final TagBus bus = new TagBus(Duration.ofSeconds(2));
    final ExecClient exec;
    final StoreForwardChannel<QuestDbRow> channel;
    final Historian historian;

    HistorianHarness(QuestDbServer questDb, Path dir, HistorianConfig config) throws Exception {
        this(questDb, dir, config, "test-gateway");
    }

    /** A historian that writes rows as gateway {@code gateway}. */
    HistorianHarness(QuestDbServer questDb, Path dir, HistorianConfig config, String gateway) throws Exception {
        this.questDb = questDb;
        this.config = config.withStoreAndForward(fastChannel());
        QuestDbSinkConfig sink = QuestDbSinkConfig.of(questDb.ilpAddress()).withRequestTimeoutMs(3000);
        this.exec = HistorianChannels.execClient(this.config, sink);
        this.channel = HistorianChannels.channel("historian", this.config, sink, dir, Liveness.alwaysUnknown(), events,
                Clock.systemUTC());
        this.historian = new Historian(this.config, gateway, bus, channel, exec, Clock.systemUTC());
    }

    static ChannelConfig fastChannel() {
        return ChannelConfig.defaults().withMaxBytes(16L << 20).withSegmentBytes(1 << 20).withBatch(500, 5)
                .withBackoff(20, 250);
    }

    static HistorianConfig config(String prefix) {
        return HistorianConfig.defaults().withTablePrefix(prefix).withBatching(100, 20);
    }

    HistorianHarness start() throws Exception {
        channel.start();
        historian.start();
        bus.start();
        return this;
    }

    HistoryQuery query() {
        return HistoryQuery.of(historian);
    }

    ChannelStatus channelStatus() {
        return channel.status();
    }

    String table(ValueTable table) {
        return historian.schema().table(table);
    }

    long count(String table) {
        return ((Number) questDb.exec("SELECT count() FROM " + table).value(0, "count()")).longValue();
    }

    @Override
    public void close() throws Exception {
        bus.stop();
        historian.stop();
        channel.stop();
    }
}
