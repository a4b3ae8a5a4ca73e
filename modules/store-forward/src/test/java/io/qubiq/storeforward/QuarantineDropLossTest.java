package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.event.LossReason;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.ScriptedSink.PoisonReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN.md rule 9: an operator's quarantine drop is a loss in the ledger, with who did it. */
class QuarantineDropLossTest {

    @TempDir
    Path dir;

    private ChannelFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private List<QuarantineEntry> entries() {
        return f.channel.quarantine().list(0, 100, Optional.empty()).entries();
    }

    @Test
    void droppingQuarantinedItemsReportsOneOperatorDropWithTheUserTheCountAndTheBytes() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withFastPath(false), OverflowPolicy.REFUSE).start();
        f.sink.poison(item -> item.startsWith("bad"), PoisonReport.NAMED);
        f.submit("ok1", "bad1", "bad22", "ok2");
        await().until(() -> entries().size() == 2);
        long bytes = entries().stream().mapToLong(QuarantineEntry::itemBytes).sum();

        f.channel.quarantine().drop(entries().stream().map(QuarantineEntry::id).toList(), "bob", "10.0.0.7");

        assertThat(f.events.losses()).singleElement().satisfies(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.OPERATOR_DROP);
            assertThat(loss.component()).isEqualTo("quarantine");
            assertThat(loss.who()).contains("bob");
            assertThat(loss.items()).isEqualTo(2);
            assertThat(loss.bytes()).isEqualTo(bytes).isPositive();
        });
    }

    @Test
    void aDropThatRemovedNothingReportsNoLoss() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withFastPath(false), OverflowPolicy.REFUSE).start();
        f.channel.quarantine().drop(List.of(42L), "carol");
        assertThat(f.events.losses()).isEmpty();
    }
}
