package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.testkit.ScriptedSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md rules 2 to 4 under load: eight producer threads submit their own numbered items in
 * batches of 1 to 20 through one channel with the fast path on, while a scheduler thread flaps the
 * destination (down, up) every few hundred milliseconds and now and then also flips the monitor's
 * verdict to DOWN. Producers therefore hit every path: the fast path, a failed fast-path write that
 * buffers and closes the latch, appends behind a backlog, gated forwarding, and the latch opening
 * again after a drain.
 *
 * <p>Items are {@code p<producer>-<n>}. Each producer's numbers go up by one per item, so its
 * received subsequence says exactly what the destination saw of it, in order.
 */
class ConcurrentProducersFlappingDestinationTest {

    private static final int PRODUCERS = 8;
    private static final int ITEMS_PER_PRODUCER = 2_000;
    private static final int MAX_SUBMIT_BATCH = 20;

    @TempDir
    Path dir;

    private ChannelFixture fixture;
    private ScheduledExecutorService flapper;
    private ExecutorService producers;

    @AfterEach
    void stop() throws Exception {
        if (flapper != null) {
            flapper.shutdownNow();
        }
        if (producers != null) {
            producers.shutdownNow();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    /**
     * Transient failures write nothing, so the destination must see each producer's items exactly
     * once and exactly in submission order: nothing missing, nothing repeated, nothing overtaking.
     */
    @Test
    void everyProducersItemsArriveOnceAndInOrderWhileTheDestinationFlaps() throws Exception {
        long seed = System.nanoTime();
        Run run = run(seed, false);

        for (int p = 0; p < PRODUCERS; p++) {
            assertThat(run.perProducer.get(p))
                    .as("seed %d: what the destination received of producer %d", seed, p)
                    .containsExactlyElementsOf(range(ITEMS_PER_PRODUCER));
        }
        assertThat(run.received).as("seed %d: total received", seed).hasSize(PRODUCERS * ITEMS_PER_PRODUCER);
        assertThat(fixture.channel.status().itemsQuarantined()).as("seed %d", seed).isZero();
        // once drained, the latch is open again: the next write takes the fast path
        assertThat(fixture.channel.submit(List.of("after-drain"))).as("seed %d", seed)
                .isEqualTo(SubmitOutcome.HANDED_OFF);
    }

    /**
     * With {@link ScriptedSink.Failure#UNKNOWN_COMMITTED} sprinkled in, a write can commit and still be
     * reported as a timeout; the channel must then re-deliver it (rule 4: the outcome is unknown), so
     * duplicates are expected, but only as <em>replays</em>. What the forwarder can replay is its head
     * batch, which always starts at the oldest unresolved item and, since the buffer only grows at
     * its tail, covers at least every item of the write that timed out. Per producer that means the
     * received numbers, read left to right, follow this grammar and nothing else:
     * <ul>
     *   <li>the next number ({@code prev + 1}): either a new item or the continuation of a replay;
     *   <li>a jump back to an earlier number {@code x <= max}, allowed only when the previous item
     *       is the highest seen so far ({@code prev == max}: a replay starts only after the whole
     *       timed-out write, never in the middle of one) and at most one batch back
     *       ({@code max - x < batch_max_items}); the replay then counts up again to {@code max}
     *       before any new item may come, because a new item needs {@code prev == max};
     *   <li>never a skip ({@code x > max + 1}).
     * </ul>
     * Together with "the highest number is the last one submitted" this proves nothing is missing,
     * nothing overtook anything, and every duplicate is a contiguous re-delivery of a write that
     * ended at the high mark. The attempt cap is set high here so that no item is quarantined as
     * "outcome unknown" (that path has its own tests); quarantining to a file is slow enough that the
     * backlog would otherwise never drain and the fast path would never be taken.
     */
    @Test
    void unknownOutcomesOnlyCauseReplaysOfWholeWritesAndNeverLossOrReordering() throws Exception {
        long seed = System.nanoTime();
        Run run = run(seed, true);
        assertThat(fixture.channel.status().itemsQuarantined()).as("seed %d", seed).isZero();

        int batchMax = fixture.config.batchMaxItems();
        int duplicates = 0;
        for (int p = 0; p < PRODUCERS; p++) {
            List<Integer> got = run.perProducer.get(p);
            assertThat(got).as("seed %d: producer %d received nothing", seed, p).isNotEmpty();
            assertThat(got.get(0)).as("seed %d: producer %d starts at its first item", seed, p).isZero();
            int max = got.get(0);
            for (int i = 1; i < got.size(); i++) {
                int prev = got.get(i - 1);
                int x = got.get(i);
                String where = String.format("seed %d, producer %d, position %d: %d after %d (highest so far %d)",
                        seed, p, i, x, prev, max);
                if (x != prev + 1) {
                    assertThat(prev).as(where + ": a replay may only start at the high mark").isEqualTo(max);
                    assertThat(x).as(where + ": not a skip").isLessThanOrEqualTo(max);
                    assertThat(max - x).as(where + ": a replay reaches back at most one batch")
                            .isLessThan(batchMax);
                }
                assertThat(x).as(where + ": nothing skipped").isLessThanOrEqualTo(max + 1);
                if (x <= max) {
                    duplicates++;
                }
                max = Math.max(max, x);
            }
            assertThat(max).as("seed %d: producer %d's last item arrived", seed, p).isEqualTo(ITEMS_PER_PRODUCER - 1);
        }
        assertThat(run.unknownInjected.get()).as("seed %d: unknown outcomes injected", seed).isPositive();
        assertThat(duplicates).as("seed %d: an unknown outcome that committed must be replayed", seed).isPositive();
        System.out.printf("seed %d: %d unknown outcomes injected, %d duplicates%n", seed, run.unknownInjected.get(),
                duplicates);
    }

    private record Run(List<String> received, Map<Integer, List<Integer>> perProducer, AtomicLong unknownInjected) {
    }

    private Run run(long seed, boolean unknownOutcomes) throws Exception {
        // durability none: ordering does not depend on it, and it keeps the final stop clear of the periodic-fsync
        // close failure in the buffer (see ChannelStopDuringPeriodicFsyncTest)
        fixture = new ChannelFixture(dir, ChannelFixture.fastConfig().withMaxBytes(32L << 20)
                .withDurability(Durability.NONE).withMaxDeliveryAttempts(1_000), OverflowPolicy.REFUSE).start();
        ScriptedSink<String> sink = fixture.sink;
        SplittableRandom flaps = new SplittableRandom(seed);
        AtomicLong unknownInjected = new AtomicLong();
        AtomicInteger livenessDowns = new AtomicInteger();
        AtomicInteger outages = new AtomicInteger();

        flapper = Executors.newSingleThreadScheduledExecutor();
        // the destination: down for 50-250 ms, then up for 100-400 ms, over and over
        Runnable[] flap = new Runnable[1];
        flap[0] = () -> {
            boolean goingDown = !sink.isDown();
            sink.down(goingDown);
            long next;
            synchronized (flaps) {
                // the monitor notices some outages too: the second one always, others at random
                if (goingDown && (outages.incrementAndGet() == 2 || flaps.nextInt(4) == 0)) {
                    fixture.liveness.set(ConnectionState.DOWN);
                    livenessDowns.incrementAndGet();
                } else if (!goingDown && fixture.liveness.state() == ConnectionState.DOWN) {
                    fixture.liveness.set(flaps.nextBoolean() ? ConnectionState.UP : ConnectionState.UNKNOWN);
                }
                next = goingDown ? 50 + flaps.nextInt(200) : 100 + flaps.nextInt(300);
            }
            flapper.schedule(flap[0], next, TimeUnit.MILLISECONDS);
        };
        flapper.schedule(flap[0], 50, TimeUnit.MILLISECONDS);
        if (unknownOutcomes) {
            // Only while up, and less often than the longest backoff (50 ms): scripted failures queue up, so
            // injecting faster than the forwarder retries would fail every retry and the backlog (and so the
            // latch) would never clear; the fast path would then go untested.
            flapper.scheduleWithFixedDelay(() -> {
                if (!sink.isDown()) {
                    sink.failNext(ScriptedSink.Failure.UNKNOWN_COMMITTED, 1);
                    unknownInjected.incrementAndGet();
                }
            }, 5, 120, TimeUnit.MILLISECONDS);
        }

        Map<ChannelState, AtomicInteger> sampledStates = new EnumMap<>(ChannelState.class);
        for (ChannelState state : ChannelState.values()) {
            sampledStates.put(state, new AtomicInteger());
        }
        flapper.scheduleWithFixedDelay(() -> sampledStates.get(fixture.channel.status().state()).incrementAndGet(),
                1, 5, TimeUnit.MILLISECONDS);

        Map<SubmitOutcome, AtomicInteger> outcomes = new EnumMap<>(SubmitOutcome.class);
        for (SubmitOutcome outcome : SubmitOutcome.values()) {
            outcomes.put(outcome, new AtomicInteger());
        }
        producers = Executors.newFixedThreadPool(PRODUCERS);
        List<Future<?>> done = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            SplittableRandom random = new SplittableRandom(seed + 1 + p);
            done.add(producers.submit(() -> {
                int n = 0;
                while (n < ITEMS_PER_PRODUCER) {
                    int size = Math.min(1 + random.nextInt(MAX_SUBMIT_BATCH), ITEMS_PER_PRODUCER - n);
                    List<String> batch = new ArrayList<>(size);
                    for (int i = 0; i < size; i++) {
                        batch.add("p" + producer + "-" + (n + i));
                    }
                    outcomes.get(fixture.channel.submit(batch)).incrementAndGet();
                    n += size;
                    // producers arrive over time, as tag changes do, so the run spans many flaps
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2 + random.nextInt(14)));
                }
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get(60, TimeUnit.SECONDS); // a submit that threw fails the test here
        }

        flapper.shutdownNow();
        assertThat(flapper.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        sink.down(false);
        fixture.liveness.set(ConnectionState.UP);
        await().atMost(Duration.ofSeconds(30)).until(() -> fixture.channel.status().bufferedItems() == 0
                && (fixture.channel.status().state() == ChannelState.IDLE
                || fixture.channel.status().state() == ChannelState.FAST_PATH));

        List<String> received = sink.received();
        Map<Integer, List<Integer>> perProducer = new ConcurrentHashMap<>();
        for (int p = 0; p < PRODUCERS; p++) {
            perProducer.put(p, new ArrayList<>());
        }
        for (String item : received) {
            int dash = item.indexOf('-');
            perProducer.get(Integer.parseInt(item.substring(1, dash))).add(Integer.parseInt(item.substring(dash + 1)));
        }

        ChannelStatus status = fixture.channel.status();
        System.out.printf("seed %d: outcomes %s, %d sink writes, %d liveness downs, states sampled %s%n", seed,
                outcomes, sink.writes(), livenessDowns.get(), sampledStates);
        assertThat(sink.maxConcurrentWriters()).as("seed %d: writers at once", seed).isEqualTo(1);
        assertThat(status.bufferedItems()).as("seed %d", seed).isZero();
        assertThat(status.state()).as("seed %d", seed).isIn(ChannelState.IDLE, ChannelState.FAST_PATH);
        // the run must really have exercised both paths, or it proves nothing about the latch
        assertThat(outcomes.get(SubmitOutcome.HANDED_OFF).get()).as("seed %d: fast-path (hand-off) submits", seed)
                .isPositive();
        assertThat(outcomes.get(SubmitOutcome.BUFFERED).get()).as("seed %d: buffered submits", seed).isPositive();
        assertThat(outages.get()).as("seed %d: destination outages", seed).isGreaterThanOrEqualTo(3);
        assertThat(livenessDowns.get()).as("seed %d: outages the monitor reported", seed).isPositive();
        return new Run(received, perProducer, unknownInjected);
    }

    private static List<Integer> range(int count) {
        List<Integer> all = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            all.add(i);
        }
        return all;
    }
}
