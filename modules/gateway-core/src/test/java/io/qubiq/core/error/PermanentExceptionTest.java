package io.qubiq.core.error;

import io.qubiq.core.error.PermanentException.RejectedItem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PermanentExceptionTest {

    @Test
    void listsTheRejectedItemsByBatchIndexWithTheirReasons() {
        PermanentException failure = new PermanentException("2 rows violate constraints",
                List.of(new RejectedItem(3, "null in NOT NULL column"), new RejectedItem(7, "duplicate key")), null);

        assertThat(failure.itemsKnown()).isTrue();
        assertThat(failure.rejected()).containsExactly(new RejectedItem(3, "null in NOT NULL column"),
                new RejectedItem(7, "duplicate key"));
    }

    @Test
    void keepsItsOwnCopyOfTheRejectedList() {
        List<RejectedItem> rejected = new ArrayList<>(List.of(new RejectedItem(0, "too long")));
        PermanentException failure = new PermanentException("rejected", rejected, null);

        rejected.add(new RejectedItem(1, "added later"));
        rejected.clear();

        assertThat(failure.rejected()).containsExactly(new RejectedItem(0, "too long"));
        assertThatThrownBy(() -> failure.rejected().add(new RejectedItem(2, "x")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void withoutAListTheCulpritIsUnknown() {
        PermanentException failure = new PermanentException("batch rejected", null);

        assertThat(failure.rejected()).isEmpty();
        assertThat(failure.itemsKnown()).isFalse();
    }

    @Test
    void rejectsANullList() {
        assertThatThrownBy(() -> new PermanentException("rejected", null, null))
                .isInstanceOf(NullPointerException.class);
    }
}
