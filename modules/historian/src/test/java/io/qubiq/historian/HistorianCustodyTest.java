package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.CustodyReceipt;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.TagBus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: a value of a QoS 1/2 MQTT message is kept (its message acknowledged) only once the
 * historian's row of it is in the channel's buffer or written, not when the historian's queue took it.
 * QuestDB is unreachable here, so the row ends in the buffer.
 */
class HistorianCustodyTest {

    @TempDir
    Path dir;

    @Test
    void aValueIsKeptOnlyOnceItsRowIsInTheHistoriansBufferWithoutWaitingForTheLinger() throws Exception {
        HistorianConfig config = HistorianConfig.defaults().withBatching(1000, 60_000);
        StoreForwardChannel<QuestDbRow> channel = HistorianChannels.channel("historian", config,
                QuestDbSinkConfig.of("127.0.0.1:9"), dir, Liveness.alwaysUnknown(), EventPublisher.none(),
                Clock.systemUTC());
        channel.start();
        TagBus bus = new TagBus(Duration.ofSeconds(1));
        Historian historian = new Historian(config, "custody", bus, channel,
                ExecClient.of("127.0.0.1:9", Duration.ofSeconds(1)), Clock.systemUTC());
        AtomicLong bufferedWhenKept = new AtomicLong(-1);
        historian.start();
        bus.start();
        try {
            CustodyReceipt receipt = CustodyReceipt.open(
                    () -> bufferedWhenKept.set(channel.status().bufferedItems()));
            bus.publish(TagValue.good(TagPath.of("c/x"), 1.0, Instant.now()), receipt);
            receipt.published();

            // well within the 60 s linger: rows a broker waits for are handed on once the queue is drained
            await().atMost(Duration.ofSeconds(20)).until(() -> bufferedWhenKept.get() >= 0);
            assertThat(bufferedWhenKept).as("QuestDB is unreachable: kept once its row was buffered").hasValue(1);
        } finally {
            historian.stop();
            bus.stop();
            channel.stop();
        }
    }
}
