package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.FailureClass;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetriedItemsTest {

    private final RetriedItems retried = new RetriedItems();

    private static QuarantineEntry entry(long id, int attempts, List<Long> previousIds) {
        return new QuarantineEntry(id, FailureClass.PERMANENT, "rejected", "", attempts,
                Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-01T01:00:00Z"), 1, previousIds);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    // Catches: two retried copies of the same bytes taking each other's verdicts out of order.
    @Test
    void identicalItemsAreMatchedInTheOrderTheyWereRetried() throws Exception {
        RetriedItems.Pending first = retried.expect(entry(3, 1, List.of()), bytes("x")).orElseThrow();
        RetriedItems.Pending second = retried.expect(entry(8, 1, List.of()), bytes("x")).orElseThrow();

        retried.delivered(bytes("x"));

        assertThat(retried.await(List.of(first, second), Duration.ZERO)).containsExactly(
                new RetriedItems.Verdict.Delivered(), new RetriedItems.Verdict.Queued());
        assertThat(retried.find(bytes("x"))).containsSame(second);
    }

    // Catches: a second failure that resets attempts and first failure, or drops the earlier ids.
    @Test
    void anEntryQuarantinedAgainCarriesTheAttemptsFirstFailureAndIdsOfEveryEarlierStay() {
        RetriedItems.Pending pending = retried.expect(entry(942, 4, List.of(939L)), bytes("x")).orElseThrow();
        QuarantineEntry fresh = new QuarantineEntry(950, FailureClass.PERMANENT, "rejected again", "", 1,
                Instant.parse("2026-12-02T00:00:00Z"), Instant.parse("2026-12-02T00:00:00Z"), 1);

        QuarantineEntry carried = pending.carriedInto(fresh);

        assertThat(carried.id()).isEqualTo(950);
        assertThat(carried.reason()).isEqualTo("rejected again");
        assertThat(carried.attempts()).isEqualTo(5);
        assertThat(carried.firstFailure()).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
        assertThat(carried.previousIds()).containsExactly(939L, 942L);
    }

    // Catches: a failed requeue leaving a registration behind that a later, unrelated item would take.
    @Test
    void aWithdrawnRegistrationIsForgotten() {
        RetriedItems.Pending pending = retried.expect(entry(3, 1, List.of()), bytes("x")).orElseThrow();
        retried.withdraw(pending);
        assertThat(retried.isEmpty()).isTrue();
        assertThat(retried.find(bytes("x"))).isEmpty();
    }

    // Catches: an unbounded register holding every retried item's bytes in memory.
    @Test
    void pastItsLimitAnItemIsRetriedWithoutBeingFollowed() {
        byte[] big = new byte[(int) (RetriedItems.MAX_BYTES / 2) + 1];
        assertThat(retried.expect(entry(1, 1, List.of()), big)).isPresent();
        assertThat(retried.expect(entry(2, 1, List.of()), big.clone())).isEmpty();
    }
}
