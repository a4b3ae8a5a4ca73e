package io.qubiq.app.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.app.losses.LossRecorder;
import io.qubiq.app.metrics.LossCounters;
import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.console.RequestFailure;
import io.qubiq.console.StoreForwardAccess.OrphanAction;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.LossReason;
import io.qubiq.losses.LossEntry;
import io.qubiq.losses.LossQuery;
import io.qubiq.losses.LossesConfig;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.RecordingEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discarding an orphan deletes its buffer and quarantine only after every item is in the loss ledger,
 * on disk; a crash half way through deleting is finished at the next start without counting again.
 * Would catch a discard that deletes uncounted data, counts the wrong number, deletes without the
 * confirmation, or counts an interrupted discard twice.
 */
class OrphanDiscardTest {

    @TempDir
    Path data;
    private final RecordingEvents events = new RecordingEvents();
    private LossRecorder losses;

    @BeforeEach
    void ledger() throws Exception {
        losses = new LossRecorder(LossesConfig.defaults(), data.resolve("losses"),
                new LossCounters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)), events, Clock.systemUTC());
        losses.start();
    }

    @AfterEach
    void close() throws Exception {
        losses.stop();
    }

    private Path connections() {
        return data.resolve("connections");
    }

    private void buffer(String connection, int items) throws Exception {
        BufferOptions options = new BufferOptions(connections().resolve(connection).resolve("buffer"), 64 * 1024,
                1L << 20, 0.8, 0.6, OverflowPolicy.REFUSE, Durability.PERIODIC, 1_000);
        SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none());
        try {
            List<byte[]> payloads = new ArrayList<>();
            for (int i = 0; i < items; i++) {
                payloads.add(("row " + i).getBytes(StandardCharsets.UTF_8));
            }
            buffer.appendBatch(payloads);
            buffer.sync();
        } finally {
            buffer.close();
        }
    }

    private void quarantine(String connection, int entries) throws Exception {
        FileQuarantineStore store = FileQuarantineStore.open(connections().resolve(connection).resolve("quarantine"),
                1L << 20);
        try {
            for (int id = 1; id <= entries; id++) {
                Instant at = Instant.parse("2026-12-03T08:00:00Z");
                store.add(new QuarantineEntry(id, FailureClass.PERMANENT, "rejected", "constraint", 1, at, at, 7),
                        "bad row".getBytes(StandardCharsets.UTF_8));
            }
        } finally {
            store.close();
        }
    }

    /** The ledger's orphan_discarded items for {@code connection}, as a fresh ledger reads them from disk. */
    private long ledgered(String connection) throws Exception {
        losses.stop();
        losses = new LossRecorder(LossesConfig.defaults(), data.resolve("losses"),
                new LossCounters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)), events, Clock.systemUTC());
        losses.start();
        return losses.query(LossQuery.all().forConnection(connection).because(LossReason.ORPHAN_DISCARDED))
                .orElseThrow().entries().stream().mapToLong(LossEntry::items).sum();
    }

    @Test
    void aDiscardRecordsEveryBufferedAndQuarantinedItemAsALossThenDeletesTheDirectory() throws Exception {
        buffer("db-old", 37);
        quarantine("db-old", 3);
        buffer("db", 5);
        OrphanedChannels orphans = OrphanedChannels.scan(connections(), Set.of("db"));
        OrphanDiscard discard = new OrphanDiscard(orphans, losses::recordDurably, events, Clock.systemUTC());

        OrphanAction answer = discard.discard("db-old", "db-old", "renamed for good", "ada", "127.0.0.1");

        assertThat(answer.bufferedItems()).isEqualTo(37);
        assertThat(answer.quarantineEntries()).isEqualTo(3);
        assertThat(connections().resolve("db-old")).doesNotExist();
        assertThat(connections().resolve("db/buffer")).isDirectory();
        assertThat(orphans.list()).isEmpty();
        assertThat(losses.query(LossQuery.all().forConnection("db-old")).orElseThrow().entries())
                .allSatisfy(entry -> {
                    assertThat(entry.reason()).isEqualTo(LossReason.ORPHAN_DISCARDED);
                    assertThat(entry.who()).contains("ada");
                    assertThat(entry.detail()).contains("renamed for good");
                });
        assertThat(ledgered("db-old")).as("37 buffered + 3 quarantined, on disk").isEqualTo(40);
        assertThat(events.audits()).singleElement().satisfies(audit -> {
            assertThat(audit.action()).isEqualTo(AuditAction.ORPHAN_DISCARD);
            assertThat(audit.target()).isEqualTo("db-old");
            assertThat(audit.user()).isEqualTo("ada");
        });
    }

    @Test
    void withoutTheNameAsConfirmationNothingIsDeletedOrCounted() throws Exception {
        buffer("db-old", 4);
        OrphanedChannels orphans = OrphanedChannels.scan(connections(), Set.of());
        OrphanDiscard discard = new OrphanDiscard(orphans, losses::recordDurably, events, Clock.systemUTC());

        assertThatThrownBy(() -> discard.discard("db-old", "db", "", "ada", "127.0.0.1"))
                .isInstanceOf(RequestFailure.InvalidRequest.class).hasMessageContaining("\"confirm\": \"db-old\"");
        assertThatThrownBy(() -> discard.discard("nope", "nope", "", "ada", "127.0.0.1"))
                .isInstanceOf(RequestFailure.NotFound.class);

        assertThat(orphans.list()).singleElement().extracting(o -> o.bufferedItems()).isEqualTo(4L);
        assertThat(connections().resolve("db-old/buffer")).isDirectory();
        assertThat(ledgered("db-old")).isZero();
    }

    @Test
    void aDiscardCutOffWhileDeletingIsFinishedAtTheNextStartWithoutCountingAgain() throws Exception {
        buffer("db-old", 12);
        quarantine("db-old", 2);
        OrphanedChannels orphans = OrphanedChannels.scan(connections(), Set.of());
        OrphanDiscard crashing = new OrphanDiscard(orphans, losses::recordDurably, events, Clock.systemUTC(), dir -> {
            OrphanFiles.deleteTree(dir.resolve("quarantine")); // half deleted, then the power goes
            throw new IllegalStateException("power loss");
        });

        assertThatThrownBy(() -> crashing.discard("db-old", "db-old", "", "ada", "127.0.0.1"))
                .isInstanceOf(RequestFailure.Fault.class).hasMessageContaining("next start deletes it");
        assertThat(connections().resolve("db-old/buffer")).isDirectory();
        assertThat(ledgered("db-old")).isEqualTo(14);

        OrphanedChannels afterRestart = OrphanedChannels.scan(connections(), Set.of());

        assertThat(afterRestart.list()).as("not listed again").isEmpty();
        assertThat(connections().resolve("db-old")).doesNotExist();
        assertThat(ledgered("db-old")).as("counted once").isEqualTo(14);
    }

    @Test
    void aDiscardWhoseLossCannotBeWrittenDeletesNothing() throws Exception {
        buffer("db-old", 6);
        OrphanedChannels orphans = OrphanedChannels.scan(connections(), Set.of());
        OrphanDiscard discard = new OrphanDiscard(orphans, loss -> {
            throw new java.io.IOException("disk full");
        }, events, Clock.systemUTC());

        assertThatThrownBy(() -> discard.discard("db-old", "db-old", "", "ada", "127.0.0.1"))
                .isInstanceOf(RequestFailure.Fault.class).hasMessageContaining("nothing was deleted");

        assertThat(connections().resolve("db-old/buffer")).isDirectory();
        assertThat(Files.exists(connections().resolve("db-old").resolve(OrphanedChannels.DISCARDED))).isFalse();
        assertThat(orphans.list()).hasSize(1);
    }

    @Test
    void anUnreadableBufferIsCountedByItsBytesBeforeItIsDeleted() throws Exception {
        buffer("newer", 3);
        Files.writeString(connections().resolve("newer/buffer/FORMAT"), "qubiq-buffer format 99\n");
        OrphanedChannels orphans = OrphanedChannels.scan(connections(), Set.of());
        OrphanDiscard discard = new OrphanDiscard(orphans, losses::recordDurably, events, Clock.systemUTC());

        discard.discard("newer", "newer", "", "ada", "127.0.0.1");

        assertThat(connections().resolve("newer")).doesNotExist();
        assertThat(losses.query(LossQuery.all().forConnection("newer")).orElseThrow().entries())
                .singleElement().satisfies(entry -> {
                    assertThat(entry.reason()).isEqualTo(LossReason.ORPHAN_DISCARDED);
                    assertThat(entry.bytes()).isPositive();
                    assertThat(entry.detail()).contains("unreadable");
                });
    }
}
