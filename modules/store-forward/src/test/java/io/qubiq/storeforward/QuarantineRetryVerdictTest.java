package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.ScriptedSink.PoisonReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 6: the answer to a quarantine retry says which items were delivered, which are
 * queued behind the backlog and which failed again at once (with the new reason), and an item that
 * failed again keeps its history.
 */
class QuarantineRetryVerdictTest {

    @TempDir
    Path dir;

    private ChannelFixture f;
    private final AtomicBoolean rejectBad = new AtomicBoolean(true);

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private List<QuarantineEntry> entries() {
        return f.channel.quarantine().list(0, 100, Optional.empty()).entries();
    }

    private long idOf(String item) {
        return entries().stream().filter(e -> e.reason().contains(item)).findFirst().orElseThrow().id();
    }

    private void quarantine(String... items) throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withFastPath(false), OverflowPolicy.REFUSE).start();
        f.sink.poison(item -> rejectBad.get() && item.startsWith("bad"), PoisonReport.NAMED);
        f.submit(items);
        long bad = List.of(items).stream().filter(i -> i.startsWith("bad")).count();
        await().until(() -> entries().size() == bad && f.channel.status().bufferedItems() == 0);
    }

    // Catches: "Retried 1 of 1." in green when the item failed again at once under a new id (939 -> 942).
    @Test
    void anItemThatFailsAgainAtOnceIsReportedWithItsNewIdAndReasonNotAsRetried() throws Exception {
        quarantine("ok1", "bad1");
        long first = idOf("bad1");

        Quarantine.RetryResult result = f.channel.quarantine().retry(List.of(first), "alice");

        assertThat(result.delivered()).isEmpty();
        assertThat(result.queued()).isEmpty();
        assertThat(result.allWell()).isFalse();
        QuarantineEntry again = result.failedAgain().get(first);
        assertThat(again).isNotNull();
        assertThat(again.id()).isNotEqualTo(first);
        assertThat(again.reason()).contains("bad1");
        assertThat(entries()).extracting(QuarantineEntry::id).containsExactly(again.id());
    }

    // Catches: a re-quarantined item starting over with attempts reset and nothing linking its two ids.
    @Test
    void anItemThatFailsAgainKeepsItsAttemptsFirstFailureAndPreviousIds() throws Exception {
        quarantine("bad1");
        QuarantineEntry before = entries().get(0);

        QuarantineEntry second = f.channel.quarantine().retry(List.of(before.id()), "alice").failedAgain()
                .get(before.id());
        QuarantineEntry third = f.channel.quarantine().retry(List.of(second.id()), "alice").failedAgain()
                .get(second.id());

        assertThat(second.previousIds()).containsExactly(before.id());
        assertThat(second.attempts()).isEqualTo(before.attempts() + 1);
        assertThat(second.firstFailure()).isEqualTo(before.firstFailure());
        assertThat(third.previousIds()).containsExactly(before.id(), second.id());
        assertThat(third.attempts()).isEqualTo(before.attempts() + 2);

        f.restart();
        QuarantineEntry reread = entries().get(0);
        assertThat(reread.id()).isEqualTo(third.id());
        assertThat(reread.previousIds()).as("the history survives a restart").containsExactly(before.id(), second.id());
        assertThat(reread.attempts()).isEqualTo(third.attempts());
        assertThat(reread.firstFailure()).isEqualTo(before.firstFailure());
    }

    // Catches: a retry that claims success for items it only put back on the buffer (or hides the delivered ones).
    @Test
    void itemsDeliveredAtOnceAndItemsStillBehindTheBacklogAreToldApart() throws Exception {
        quarantine("ok1", "bad1", "bad2");
        long bad1 = idOf("bad1");
        long bad2 = idOf("bad2");
        rejectBad.set(false); // the operator fixed the cause at the destination

        Quarantine.RetryResult delivered = f.channel.quarantine().retry(List.of(bad1), "alice");

        assertThat(delivered.delivered()).containsExactly(bad1);
        assertThat(delivered.allWell()).isTrue();
        assertThat(f.sink.received()).contains("bad1");

        f.liveness.set(ConnectionState.DOWN); // a backlog that cannot move
        f.submit("later1", "later2");
        Quarantine.RetryResult queued = f.channel.quarantine().retry(List.of(bad2), "alice");

        assertThat(queued.queued()).containsExactly(bad2);
        assertThat(queued.delivered()).isEmpty();
        assertThat(queued.allWell()).isTrue();
        f.liveness.set(ConnectionState.UP);
        await().until(() -> f.sink.received().contains("bad2"));
        assertThat(f.sink.received()).containsSubsequence("later1", "later2", "bad2");
    }

    // Catches: an id that is not in the quarantine being counted as retried.
    @Test
    void anIdNotInTheQuarantineIsReportedAsNotRetried() throws Exception {
        quarantine("bad1");
        Quarantine.RetryResult result = f.channel.quarantine().retry(List.of(999_999L), "carol");
        assertThat(result.notRetried()).containsEntry(999_999L, "not in the quarantine");
        assertThat(result.allWell()).isFalse();
    }
}
