package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.tag.Custody;
import io.qubiq.core.time.Ticker;
import io.qubiq.sink.questdb.QuestDbRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: the custody of the messages a tag-bus batch came from goes with its rows to the channel,
 * and is released exactly once: by the channel, or here when nothing is left to keep.
 */
class RowBatcherCustodyTest {

    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
    private static final QuestDbRow.Layout LAYOUT = QuestDbRow.Layout.of("t", List.of(), List.of("v"));

    /** A submitter that keeps each batch's custody, as a channel holding it in its hand-off would. */
    private final List<Custody> held = new CopyOnWriteArrayList<>();
    private final List<List<QuestDbRow>> submitted = new CopyOnWriteArrayList<>();
    private final RowBatcher.Submitter channel = new RowBatcher.Submitter() {
        @Override
        public void submit(List<QuestDbRow> batch) {
            submitted.add(batch);
        }

        @Override
        public void submit(List<QuestDbRow> batch, Custody custody) {
            submitted.add(batch);
            held.add(custody);
        }
    };
    private final AtomicInteger releases = new AtomicInteger();
    private final Custody custody = releases::incrementAndGet;
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

    @Test
    void rowsCarryTheirCustodyToTheChannelWhichReleasesIt() throws Exception {
        batcher = new RowBatcher(channel, 10, Duration.ofHours(1), Ticker.system());
        batcher.start();

        batcher.add(rows(0, 3), custody);
        batcher.flush();

        assertThat(releases).as("the channel holds it").hasValue(0);
        held.forEach(Custody::release);
        assertThat(releases).hasValue(1);
    }

    @Test
    void rowsSplitAcrossTwoBatchesReleaseTheirCustodyOnceBothBatchesAreReleased() throws Exception {
        batcher = new RowBatcher(channel, 10, Duration.ofHours(1), Ticker.system());
        batcher.start();
        batcher.add(rows(0, 7));

        batcher.add(rows(7, 14), custody); // 3 rows fill the first batch, 4 start the second
        batcher.flush();

        assertThat(submitted).hasSize(2);
        held.get(0).release();
        assertThat(releases).as("the second batch is not safe yet").hasValue(0);
        held.get(1).release();
        held.get(1).release();
        assertThat(releases).hasValue(1);
    }

    @Test
    void rowsCarryingCustodyAreHandedOnWithoutLingeringRowsWithoutItKeepLingering() throws Exception {
        batcher = new RowBatcher(channel, 1000, Duration.ofHours(1), Ticker.system());
        batcher.start();

        batcher.add(rows(0, 3));
        batcher.handOnHeld();
        assertThat(submitted).as("nothing waits for these rows").isEmpty();

        batcher.add(rows(3, 5), custody);
        batcher.handOnHeld();
        await().until(() -> submitted.size() == 1);
        assertThat(submitted.get(0)).containsExactlyElementsOf(rows(0, 5));
    }

    @Test
    void aBatchWithoutRowsReleasesItsCustodyAtOnce() {
        batcher = new RowBatcher(channel, 10, Duration.ofHours(1), Ticker.system());
        batcher.start();

        batcher.add(List.of(), custody);

        assertThat(releases).hasValue(1);
        assertThat(submitted).isEmpty();
    }

    @Test
    void aSubmitterThatKeepsNothingReleasesTheCustodyWhenSubmitReturnsOrThrows() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        batcher = new RowBatcher(batch -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("refused");
            }
        }, 2, Duration.ofHours(1), Ticker.system());
        batcher.start();

        batcher.add(rows(0, 2), custody);
        batcher.add(rows(2, 4), custody);
        batcher.flush();

        await().until(() -> releases.get() == 2);
        assertThat(batcher.rowsRejected()).isEqualTo(2);
    }
}
