package io.qubiq.app.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import io.qubiq.console.StoreForwardAccess.OrphanedChannel;
import io.qubiq.core.error.FailureClass;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data of a connection that was renamed or removed is found and reported, not lost from sight.
 * Would catch an orphan that goes unreported (its items silently never delivered), an owned channel
 * reported as an orphan, a delivered-out orphan reported as holding data, and a damaged orphan that
 * stops the scan.
 */
class OrphanedChannelsTest {

    @TempDir
    Path data;

    private void buffer(String connection, int items, int acknowledged) throws Exception {
        Path dir = data.resolve("connections").resolve(connection).resolve("buffer");
        BufferOptions options = new BufferOptions(dir, 64 * 1024, 1L << 20, 0.8, 0.6, OverflowPolicy.REFUSE,
                Durability.PERIODIC, 1_000);
        SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(options, WatermarkListener.none());
        try {
            List<byte[]> payloads = new ArrayList<>();
            for (int i = 0; i < items; i++) {
                payloads.add(("row " + i).getBytes(StandardCharsets.UTF_8));
            }
            var range = buffer.appendBatch(payloads);
            if (acknowledged > 0) {
                buffer.reader().acknowledge(range.first() + acknowledged - 1);
            }
            buffer.sync();
        } finally {
            buffer.close();
        }
    }

    private void quarantine(String connection, int entries) throws Exception {
        FileQuarantineStore store = FileQuarantineStore.open(data.resolve("connections").resolve(connection)
                .resolve("quarantine"), 1L << 20);
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

    @Test
    void aRenamedConnectionsBacklogAndQuarantineAreReportedAndOwnedOrEmptyOnesAreNot() throws Exception {
        buffer("db-old", 10, 0);
        quarantine("db-old", 2);
        buffer("db", 5, 0);             // owned: the configured connection
        buffer("mes-gone", 4, 4);       // removed, but everything in it was delivered

        List<OrphanedChannel> orphans = OrphanedChannels.scan(data.resolve("connections"), Set.of("db", "historian"))
                .list();

        assertThat(orphans).singleElement().satisfies(orphan -> {
            assertThat(orphan.connection()).isEqualTo("db-old");
            assertThat(orphan.bufferedItems()).isEqualTo(10);
            assertThat(orphan.bufferedBytes()).isPositive();
            assertThat(orphan.quarantineEntries()).isEqualTo(2);
            assertThat(orphan.problem()).isNull();
        });
    }

    @Test
    void anOrphanWhoseBufferCannotBeReadIsReportedWithTheReasonAndTheScanGoesOn() throws Exception {
        buffer("newer", 3, 0);
        Files.writeString(data.resolve("connections/newer/buffer/FORMAT"), "qubiq-buffer format 99\n");
        buffer("older", 2, 0);

        List<OrphanedChannel> orphans = OrphanedChannels.scan(data.resolve("connections"), Set.of()).list();

        assertThat(orphans).extracting(OrphanedChannel::connection).containsExactly("newer", "older");
        assertThat(orphans.get(0).bufferedItems()).isEqualTo(-1);
        assertThat(orphans.get(0).problem()).contains("could not be read", "newer");
        assertThat(orphans.get(1).bufferedItems()).isEqualTo(2);
    }

    @Test
    void noConnectionsDirectoryMeansNoOrphans() {
        assertThat(OrphanedChannels.scan(data.resolve("connections"), Set.of()).list()).isEmpty();
    }
}
