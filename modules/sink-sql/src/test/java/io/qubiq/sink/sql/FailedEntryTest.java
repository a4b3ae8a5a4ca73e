package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class FailedEntryTest {

    private static final int F = Statement.EXECUTE_FAILED;

    private static BatchUpdateException batch(String message, int... counts) {
        return new BatchUpdateException(message, "23505", 0, counts, null);
    }

    @Test
    void pgjdbcNamesTheEntryInItsMessageWhileMarkingEveryEntryFailed() {
        assertThat(FailedEntry.of(batch("Batch entry 37 INSERT INTO t VALUES (37) was aborted: ERROR: x", F, F, F),
                50, false)).hasValue(37);
    }

    @Test
    void theEntryIsReadWithTheLocalesDigitGrouping() {
        for (String n : new String[] {"1,337", "1.337", "1\u00a0337", "1\u202f337", "1'337"}) {
            assertThat(FailedEntry.of(batch("Batch entry " + n + " <unknown> was aborted: x", F), 2000, false)).as(n)
                    .hasValue(1337);
        }
    }

    @Test
    void anEntryBeyondTheBatchOrARewrittenBatchOrATranslatedMessageIsUnknown() {
        assertThat(FailedEntry.of(batch("Batch entry 50 <unknown> was aborted", F, F), 50, false)).isEmpty();
        assertThat(FailedEntry.of(batch("Batch entry 3 <unknown> was aborted", F, F, F, F), 4, true)).isEmpty();
        assertThat(FailedEntry.of(batch("Batch-Eintrag 3 <unknown> wurde abgebrochen", F, F, F, F), 4, false)).isEmpty();
    }

    @Test
    void otherDriversNameItByShortOrSingleFailedUpdateCounts() {
        assertThat(FailedEntry.of(batch("failed", 1, 1), 5, false)).hasValue(2);
        assertThat(FailedEntry.of(batch("failed", 1, Statement.SUCCESS_NO_INFO, F, 1), 4, false)).hasValue(2);
        assertThat(FailedEntry.of(batch("failed", 1, F, F, 1), 4, false)).isEmpty();
        assertThat(FailedEntry.of(batch("failed", 1, 1, 1, 1), 4, false)).isEmpty();
        assertThat(FailedEntry.of(new BatchUpdateException("failed", "23505", 0, (int[]) null, null), 4, false)).isEmpty();
    }

    @Test
    void aSingleRowBatchNamesItsRowAndAPlainFailureOfALargerOneIsUnknown() {
        assertThat(FailedEntry.of(new SQLException("x", "23505"), 1, false)).hasValue(0);
        assertThat(FailedEntry.of(batch("anything", F), 1, true)).hasValue(0);
        assertThat(FailedEntry.of(new SQLException("x", "23505"), 3, false)).isEmpty();
    }
}
