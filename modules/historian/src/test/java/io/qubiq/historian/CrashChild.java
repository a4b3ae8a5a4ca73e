package io.qubiq.historian;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.TagBus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The process {@link HistorianCrashTest} kills: a tag bus, a historian and its channel writing to
 * the test's QuestDB. Publishes the values, prints {@code ACCEPTED} once every row is in the
 * channel's durable buffer, then keeps draining until it is killed.
 *
 * <p>Arguments: QuestDB address, channel directory, table prefix, number of values.
 */
public final class CrashChild {

    static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

    static HistorianConfig config(String prefix) {
        return HistorianConfig.defaults().withTablePrefix(prefix).withBatching(500, 0)
                .withStoreAndForward(slowDrain());
    }

    /** Every write through the buffer, in small batches, so that a kill lands mid-drain. */
    static ChannelConfig slowDrain() {
        return ChannelConfig.defaults().withMaxBytes(64L << 20).withSegmentBytes(1 << 20).withBatch(20, 0)
                .withBackoff(20, 200).withFastPath(false);
    }

    static TagValue value(int i) {
        return TagValue.good(TagPath.of("crash/" + (i % 3)), (long) i, T0.plusMillis(i));
    }

    public static void main(String[] args) throws Exception {
        String address = args[0];
        Path dir = Path.of(args[1]);
        HistorianConfig config = config(args[2]);
        int count = Integer.parseInt(args[3]);
        QuestDbSinkConfig sink = QuestDbSinkConfig.of(address);
        StoreForwardChannel<QuestDbRow> channel = HistorianChannels.channel("historian", config, sink, dir,
                Liveness.alwaysUnknown(), EventPublisher.none(), Clock.systemUTC());
        TagBus bus = new TagBus();
        Historian historian = new Historian(config, "crash-child", bus, channel,
                ExecClient.of(address, Duration.ofSeconds(10)), Clock.systemUTC());
        channel.start();
        historian.start();
        bus.start();
        for (int i = 0; i < count; i++) {
            bus.publish(value(i));
        }
        while (historian.status().rowsSubmitted() < count) {
            Thread.onSpinWait();
        }
        System.out.println("ACCEPTED " + channel.status().itemsDelivered());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // killed by the test
    }
}
