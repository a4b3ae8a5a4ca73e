package io.qubiq.core.tag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CustodyReceiptTest {

    private final AtomicInteger kept = new AtomicInteger();
    private final CustodyReceipt receipt = CustodyReceipt.open(kept::incrementAndGet);

    @Test
    void aReceiptNobodyTookAShareOfIsKeptAsSoonAsTheSourceIsDone() {
        receipt.published();

        assertThat(kept).hasValue(1);
        assertThat(receipt.kept()).isTrue();
    }

    @Test
    void aReceiptIsKeptOnlyOnceTheSourceIsDoneAndEveryShareIsReleased() {
        Custody historian = receipt.share();
        Custody pipeline = receipt.share();
        receipt.published();
        historian.release();
        assertThat(kept).as("one share still held").hasValue(0);

        pipeline.release();
        assertThat(kept).hasValue(1);
    }

    @Test
    void aShareReleasedTwiceCountsOnce() {
        Custody first = receipt.share();
        Custody second = receipt.share();
        receipt.published();
        first.release();
        first.release();

        assertThat(kept).hasValue(0);
        assertThat(receipt.holds()).isOne();
        second.release();
        second.release();
        receipt.published();
        assertThat(kept).hasValue(1);
    }

    @Test
    void sharesReleasedBeforeTheSourceIsDoneDoNotCompleteTheReceipt() {
        receipt.share().release();

        assertThat(kept).as("the source still publishes values").hasValue(0);
        receipt.published();
        assertThat(kept).hasValue(1);
    }

    @Test
    void anAbandonedReceiptIsNeverKeptWhateverItsSharesDo() {
        Custody share = receipt.share();
        receipt.abandon();
        share.release();

        assertThat(kept).hasValue(0);
        assertThat(receipt.kept()).isFalse();
        assertThat(receipt.holds()).isZero();
    }

    @Test
    void aShareOfACompletedReceiptIsRefused() {
        receipt.published();

        assertThatThrownBy(receipt::share).isInstanceOf(IllegalStateException.class);
        assertThat(kept).hasValue(1);
    }

    @Test
    void oneCustodyForManySharesReleasesEachOfThemOnce() {
        Custody a = receipt.share();
        Custody b = receipt.share();
        Custody both = Custody.allOf(List.of(a, b));
        receipt.published();
        both.release();
        both.release();

        assertThat(kept).hasValue(1);
        assertThat(Custody.allOf(List.of())).isSameAs(Custody.NONE);
    }
}
