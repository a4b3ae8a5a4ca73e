package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The group commit when an fsync round throws an {@link Error} (an OutOfMemoryError inside
 * {@code force}, say). Would catch the old handling: the round's waiters were told their records
 * were durable (the round ended without a recorded failure) and the group-commit thread died, so
 * the next durable append waited for ever.
 */
class GroupCommitTest {

    @Test
    void anErrorInAnFsyncFailsItsWaitersAsMaybeStoredAndTheNextRoundStillRuns() throws Exception {
        AtomicLong published = new AtomicLong(1);
        AtomicInteger rounds = new AtomicInteger();
        GroupCommit commit = new GroupCommit(published::get, () -> {
            if (rounds.incrementAndGet() == 1) {
                throw new OutOfMemoryError("thrown by the test inside the fsync");
            }
        }, 0);
        try {
            CompletableFuture<Long> first = commit.durable(1);
            assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(BufferIOException.class)
                    .hasMessageContaining("may be stored but is not known to be durable");

            published.set(2);
            assertThat(commit.durable(2).get(10, TimeUnit.SECONDS)).isEqualTo(2L);
            assertThat(commit.failures()).isEqualTo(1);
        } finally {
            commit.stop(false);
        }
    }
}
