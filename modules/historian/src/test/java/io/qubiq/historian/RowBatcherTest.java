package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.time.ManualTicker;
import io.qubiq.core.time.Ticker;
import io.qubiq.sink.questdb.QuestDbRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Batching and the writer thread: order kept, rows pending until resolved, refusals counted. */
class RowBatcherTest {

    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");
    private static final QuestDbRow.Layout LAYOUT = QuestDbRow.Layout.of("t", List.of(), List.of("v"));
    private final List<List<QuestDbRow>> submitted = new CopyOnWriteArrayList<>();
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
    void fullBatchesReachTheChannelInTheOrderTheRowsCame() throws Exception {
        batcher = new RowBatcher(submitted::add, 10, Duration.ofHours(1), Ticker.system());
        batcher.start();

        for (int i = 0; i < 100; i += 7) {
            batcher.add(rows(i, Math.min(i + 7, 100)));
        }
        batcher.flush();

        assertThat(submitted).allSatisfy(batch -> assertThat(batch).hasSizeLessThanOrEqualTo(10));
        assertThat(submitted.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(rows(0, 100));
        assertThat(batcher.rowsSubmitted.get()).isEqualTo(100);
        assertThat(batcher.pending()).isZero();
    }

    @Test
    void rowsStayPendingWhileTheWriterIsBusyAndHandingOnWaitsForIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        batcher = new RowBatcher(batch -> {
            release.await();
            submitted.add(batch);
        }, 5, Duration.ofHours(1), Ticker.system());
        batcher.start();

        batcher.add(rows(0, 5)); // taken by the writer, which blocks
        batcher.add(rows(5, 10)); // waits in the hand-off
        Thread third = new Thread(() -> batcher.add(rows(10, 15))); // must wait for room
        third.start();

        await().until(() -> third.getState() == Thread.State.WAITING || third.getState() == Thread.State.TIMED_WAITING);
        assertThat(batcher.pending()).as("pending never waits for the writer").isEqualTo(15);
        assertThat(submitted).isEmpty();
        release.countDown();
        third.join(TimeUnit.SECONDS.toMillis(10));
        batcher.flush();
        assertThat(submitted.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(rows(0, 15));
        assertThat(batcher.pending()).isZero();
    }

    @Test
    void batchesTheChannelRefusesAreCountedAndTheWriterGoesOn() throws Exception {
        batcher = new RowBatcher(batch -> {
            if (batch.get(0).columns().get("v").equals(5L)) {
                throw new IllegalStateException("channel not running");
            }
            submitted.add(batch);
        }, 5, Duration.ofHours(1), Ticker.system());
        batcher.start();

        batcher.add(rows(0, 15));
        batcher.flush();

        assertThat(batcher.rowsRejected()).isEqualTo(5);
        assertThat(batcher.rowsSubmitted.get()).isEqualTo(10);
        assertThat(submitted.stream().flatMap(List::stream).toList())
                .containsExactlyElementsOf(List.of(rows(0, 5), rows(10, 15)).stream().flatMap(List::stream).toList());
    }

    /**
     * Would catch a writer thread that an Error ends: the next hand-on would then wait for it forever
     * and block the tag bus's historian thread (ARCHITECTURE.md thread table, before this test).
     */
    @Test
    @org.junit.jupiter.api.Timeout(20)
    void anErrorOutOfTheSubmitLosesOnlyThatBatchCountedAndReportedAndTheWriterGoesOn() throws Exception {
        List<io.qubiq.core.event.DataLoss> losses = new CopyOnWriteArrayList<>();
        batcher = new RowBatcher(batch -> {
            if (batch.get(0).columns().get("v").equals(5L)) {
                throw new OutOfMemoryError("Java heap space (thrown by the test)");
            }
            submitted.add(batch);
        }, 5, Duration.ofHours(1), Ticker.system(), losses::add, java.time.Clock.systemUTC());
        batcher.start();

        batcher.add(rows(0, 15));
        batcher.flush();
        batcher.add(rows(15, 20));
        batcher.flush();

        assertThat(batcher.rowsRejected()).isEqualTo(5);
        assertThat(losses).singleElement().satisfies(loss -> assertThat(loss.items()).isEqualTo(5));
        assertThat(submitted.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(
                List.of(rows(0, 5), rows(10, 20)).stream().flatMap(List::stream).toList());
    }

    @Test
    void stopHandsOnThePartialBatchBeforeTheWriterEnds() throws Exception {
        RowBatcher stopping = new RowBatcher(submitted::add, 100, Duration.ofHours(1), Ticker.system());
        stopping.start();
        stopping.add(rows(0, 3));

        stopping.stop();

        assertThat(submitted).containsExactly(rows(0, 3));
        assertThat(stopping.pending()).isZero();
    }

    @Test
    void aBatchThatLingeredLongEnoughOnTheMonotonicClockIsHandedOnByTheTicker() throws Exception {
        // Regression: the linger was measured on the wall clock, so after the clock stepped back one hour
        // a pending batch (fewer than max rows) waited an hour before it was handed on. The batcher now
        // takes only a ticker, so the wall clock is out of its reach.
        ManualTicker ticker = new ManualTicker();
        batcher = new RowBatcher(submitted::add, 100, Duration.ofMillis(100), ticker);
        batcher.start();
        batcher.add(rows(0, 2));

        batcher.flushIfDue();
        assertThat(batcher.pending()).isEqualTo(2);
        ticker.advance(Duration.ofMillis(100));
        batcher.flushIfDue();

        await().until(() -> batcher.pending() == 0);
        assertThat(submitted).containsExactly(rows(0, 2));
    }
}
