package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.tagbus.SubscriberStats;
import io.qubiq.tagbus.TagBus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistorianSubmitFailureTest {

    @TempDir
    Path dir;

    @Test
    void channelThatRefusesBatchesIsCountedAndNeverStopsTheTagBusConsumer() throws Exception {
        HistorianConfig config = HistorianConfig.defaults().withBatching(10, 0);
        QuestDbSinkConfig sink = QuestDbSinkConfig.of("127.0.0.1:9");
        // never started: every submit fails with ChannelException
        StoreForwardChannel<QuestDbRow> channel = HistorianChannels.channel("historian", config, sink, dir,
                Liveness.alwaysUnknown(), EventPublisher.none(), Clock.systemUTC());
        TagBus bus = new TagBus(Duration.ofSeconds(1));
        Historian historian = new Historian(config, "submit-failure", bus, channel,
                ExecClient.of("127.0.0.1:9", Duration.ofSeconds(1)), Clock.systemUTC());
        historian.start();
        bus.start();
        try {
            for (int i = 0; i < 50; i++) {
                bus.publish(TagValue.good(TagPath.of("f/x"), (double) i, Instant.EPOCH.plusSeconds(i)));
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> historian.status().rowsRejected() == 50);
            SubscriberStats stats = bus.stats().subscribers().get(0);
            assertThat(stats.delivered()).isEqualTo(50);
            assertThat(stats.consumerErrors()).isZero();
            assertThat(historian.status().samplesStored()).isEqualTo(50);
            assertThat(historian.liveTail().samples(TagPath.of("f/x"), Instant.EPOCH, Instant.EPOCH.plusSeconds(60)))
                    .hasSize(50);
            assertThat(historian.status()).extracting(HistorianStatus::liveTailTags, HistorianStatus::liveTailRoom,
                    HistorianStatus::liveTailMaxRoom).as("one tag, its ring grown 16 -> 32 -> 64, the default maximum")
                    .containsExactly(1, 64L, 1_000_000L);
        } finally {
            bus.stop();
            historian.stop();
        }
    }
}
