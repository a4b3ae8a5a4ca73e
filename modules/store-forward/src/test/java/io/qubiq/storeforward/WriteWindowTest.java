package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WriteWindowTest {

    private static final long MS = 1_000_000L;

    // Catches: growing straight back into the timeout, paying one cut-off write every few writes.
    @Test
    void aDestinationThatStaysSlowSettlesAtASizeThatFitsInsteadOfProbingUpwards() {
        WriteWindow window = new WriteWindow(500);
        window.timedOut(500, 1_000 * MS);          // 4 ms per item: 500 items need 2 s, cut off at 1 s
        assertThat(window.items()).isEqualTo(250);
        window.timedOut(250, 1_000 * MS);
        assertThat(window.items()).isEqualTo(125);
        for (int i = 0; i < 100; i++) {
            window.succeeded(125, 500 * MS);       // doubling would take 1 s: not well inside it
        }
        assertThat(window.items()).isEqualTo(125);
        assertThat(window.reduced()).isTrue();
    }

    // Catches: a window that never grows back once the destination is fast again.
    @Test
    void theWriteSizeGrowsBackToTheFullBatchWhenWritesAreQuickAgain() {
        WriteWindow window = new WriteWindow(500);
        window.timedOut(500, 1_000 * MS);
        window.timedOut(250, 1_000 * MS);
        window.timedOut(125, 1_000 * MS);
        assertThat(window.items()).isEqualTo(62);

        window.succeeded(62, 10 * MS);
        window.succeeded(124, 20 * MS);
        window.succeeded(248, 40 * MS);
        window.succeeded(496, 80 * MS);

        assertThat(window.items()).isEqualTo(500);
        assertThat(window.reduced()).isFalse();
    }

    // Catches: the short tail of a batch being taken as proof that full-size writes are fast.
    @Test
    void aShortWriteAtTheEndOfABatchDoesNotGrowTheWindow() {
        WriteWindow window = new WriteWindow(100);
        window.timedOut(100, 1_000 * MS);
        window.succeeded(3, 1 * MS);
        assertThat(window.items()).isEqualTo(50);
    }

    @Test
    void itNeverGoesBelowOneItem() {
        WriteWindow window = new WriteWindow(2);
        window.timedOut(2, 1_000 * MS);
        window.timedOut(1, 1_000 * MS);
        assertThat(window.items()).isEqualTo(1);
    }
}
