package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.buffer.BufferIOException;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.time.Ticker;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.storeforward.ChannelException;
import io.qubiq.storeforward.ChannelFullException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Historian rows its channel did not take are entered in the loss ledger (so the data-lost alarm is
 * raised), exactly once: as {@code disk_full} when the disk was full, as
 * {@code historian_rows_refused} otherwise, and not at all when the channel has entered them itself.
 * Would catch: rows lost to a full disk that are only logged, or counted twice.
 */
class HistorianRowLossTest {

    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
    private static final QuestDbRow.Layout LAYOUT = QuestDbRow.Layout.of("t", List.of(), List.of("v"));
    private final List<DataLoss> losses = new CopyOnWriteArrayList<>();
    private RowBatcher batcher;

    @AfterEach
    void stop() throws Exception {
        if (batcher != null) {
            batcher.stop();
        }
    }

    private static List<QuestDbRow> rows(int from, int to) {
        List<QuestDbRow> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            rows.add(LAYOUT.row(T0.plusSeconds(i), (long) i));
        }
        return rows;
    }

    /** Five batches of five rows; the channel answers the second with {@code failure}. */
    private void submitWhereTheSecondBatchFailsWith(Exception failure) throws Exception {
        batcher = new RowBatcher(batch -> {
            if (batch.get(0).columns().get("v").equals(5L)) {
                throw failure;
            }
        }, 5, Duration.ofHours(1), Ticker.system(), losses::add, Clock.systemUTC());
        batcher.start();
        batcher.add(rows(0, 25));
        batcher.flush();
        assertThat(batcher.rowsRejected()).isEqualTo(5);
    }

    @Test
    void rowsLostToAFullDiskAreADiskFullLossOfTheHistorian() throws Exception {
        submitWhereTheSecondBatchFailsWith(new IllegalStateException("could not keep the rows",
                new IOException("No space left on device")));

        assertThat(losses).singleElement().satisfies(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.DISK_FULL);
            assertThat(loss.items()).isEqualTo(5);
            assertThat(loss.component()).isEqualTo("historian");
            assertThat(loss.connection()).isEqualTo("historian");
            assertThat(loss.detail()).contains("could not keep the rows");
        });
    }

    @Test
    void rowsAStoppedChannelDidNotTakeAreRefusedHistorianRowsInTheLedger() throws Exception {
        submitWhereTheSecondBatchFailsWith(new ChannelException("store-and-forward channel 'historian' is not"
                + " running", null));

        assertThat(losses).singleElement().satisfies(loss -> {
            assertThat(loss.reason()).isEqualTo(LossReason.HISTORIAN_ROWS_REFUSED);
            assertThat(loss.items()).isEqualTo(5);
        });
    }

    @Test
    void rowsTheChannelEnteredInTheLedgerItselfAreNotCountedTwice() throws Exception {
        submitWhereTheSecondBatchFailsWith(new ChannelFullException("historian", 100, 100, null));
        batcher.stop();
        submitWhereTheSecondBatchFailsWith(new ChannelException("could not store the batch",
                new BufferIOException("append failed", new IOException("No space left on device"))));

        assertThat(losses).isEmpty();
    }
}
