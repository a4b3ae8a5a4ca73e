package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.ScriptedSink.Failure;
import io.qubiq.testkit.ScriptedSink.PoisonReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN.md rule 6: the quarantine is a durable operator queue; every retry and drop is audited. */
class ChannelQuarantineTest {

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

    private void quarantineThree() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withFastPath(false), OverflowPolicy.REFUSE).start();
        f.sink.poison(item -> rejectBad.get() && item.startsWith("bad"), PoisonReport.NAMED);
        f.submit("ok1", "bad1", "ok2", "bad2", "ok3", "bad3");
        await().until(() -> entries().size() == 3);
    }

    @Test
    void rule6_quarantineSurvivesRestartAndRetryDeliversTheItem() throws Exception {
        quarantineThree();
        f.restart();
        assertThat(entries()).hasSize(3);

        rejectBad.set(false); // the operator fixed the cause at the destination
        long bad2 = entries().stream().filter(e -> e.reason().contains("bad2")).findFirst().orElseThrow().id();
        Quarantine.RetryResult result = f.channel.quarantine().retry(List.of(bad2), "alice");

        assertThat(result.delivered()).containsExactly(bad2);
        assertThat(f.sink.received()).contains("bad2");
        assertThat(entries()).hasSize(2);
        assertThat(f.events.audits()).singleElement().satisfies(audit -> {
            assertThat(audit.user()).isEqualTo("alice");
            assertThat(audit.action()).isEqualTo(AuditAction.QUARANTINE_RETRY);
            assertThat(audit.target()).isEqualTo("connection/dest/quarantine");
            assertThat(audit.details()).containsEntry("count", "1").containsEntry("ids", "[" + bad2 + "]");
        });
    }

    @Test
    void rule6_dropRemovesForGoodAcrossARestartAndIsAudited() throws Exception {
        quarantineThree();
        List<QuarantineEntry> held = entries();
        QuarantineEntry bad1 = held.stream().filter(e -> e.reason().contains("bad1")).findFirst().orElseThrow();
        long bytes = held.stream().mapToLong(QuarantineEntry::itemBytes).sum();
        java.time.Instant firstFailure = held.stream().map(QuarantineEntry::firstFailure).min(java.util.Comparator
                .naturalOrder()).orElseThrow();
        Quarantine.BulkResult result = f.channel.quarantine().dropAll("bob");
        assertThat(result.done()).hasSize(3);
        f.restart();
        assertThat(entries()).isEmpty();
        assertThat(f.sink.received()).containsExactly("ok1", "ok2", "ok3");
        AuditEvent audit = f.events.audits().get(0);
        assertThat(audit.action()).isEqualTo(AuditAction.QUARANTINE_DROP);
        assertThat(audit.user()).isEqualTo("bob");
        assertThat(audit.outcome()).isEqualTo("dropped");
        // what was dropped, not only the ids: channel, size, first failure, and each item's class and reason
        assertThat(audit.details()).containsEntry("connection", "dest").containsEntry("count", "3")
                .containsEntry("bytes", String.valueOf(bytes)).containsEntry("first_failure", firstFailure.toString());
        assertThat(audit.details().get("items")).contains("id " + bad1.id() + ": " + bad1.itemBytes() + " bytes, "
                + "permanent, first failed " + bad1.firstFailure() + ", " + bad1.attempts() + " attempt", bad1.reason());
        assertThat(audit.details().get("reasons")).contains("permanent: ");
    }

    @Test
    void rule6_listingIsNewestFirstPagedAndFilteredByFailureClass() throws Exception {
        quarantineThree();
        f.sink.failNext(Failure.UNKNOWN_LOST, 3);
        f.submit("maybe");
        await().until(() -> entries().size() == 4);

        var quarantine = f.channel.quarantine();
        assertThat(quarantine.list(0, 2, Optional.empty()).entries()).hasSize(2);
        assertThat(quarantine.list(0, 2, Optional.empty()).total()).isEqualTo(4);
        List<QuarantineEntry> all = quarantine.list(0, 10, Optional.empty()).entries();
        assertThat(all).extracting(QuarantineEntry::id).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        assertThat(quarantine.list(0, 10, Optional.of(FailureClass.UNKNOWN_OUTCOME)).entries())
                .singleElement().satisfies(e -> assertThat(quarantine.get(e.id()).orElseThrow().preview())
                        .isEqualTo("maybe"));
    }

    @Test
    void rule6_retryAndDropOfUnknownIdsReportWhichFailed() throws Exception {
        quarantineThree();
        Quarantine.BulkResult result = f.channel.quarantine().drop(List.of(999_999L), "carol");
        assertThat(result.done()).isEmpty();
        assertThat(result.failed()).containsEntry(999_999L, "not in the quarantine");
        assertThat(f.events.audits().get(0).outcome()).isEqualTo("dropped with failures");
    }

    @Test
    void fullQuarantineStopsDeliveryWithAnAlarmInsteadOfDroppingTheItem() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withFastPath(false).withQuarantineMaxBytes(65536),
                OverflowPolicy.REFUSE).start();
        f.sink.poison(item -> rejectBad.get() && item.startsWith("bad"), PoisonReport.NAMED);
        String big = "bad" + "y".repeat(40_000);
        f.submit(big + 1);
        await().until(() -> entries().size() == 1);
        f.submit(big + 2, "ok-behind-it");

        await().until(() -> f.channel.status().state() == ChannelState.STALLED);
        assertThat(f.sink.received()).doesNotContain("ok-behind-it");
        assertThat(f.events.alarms()).anySatisfy(alarm -> assertThat(alarm.key()).isEqualTo("quarantine-full/dest"));

        f.channel.quarantine().dropAll("operator");
        await().until(() -> f.sink.received().contains("ok-behind-it"));
        assertThat(entries()).hasSize(1);
    }
}
