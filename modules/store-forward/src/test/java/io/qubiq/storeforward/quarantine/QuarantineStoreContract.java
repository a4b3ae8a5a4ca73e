package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.FailureClass;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link QuarantineStore} must do, run against each implementation by a subclass.
 * Durability across reopen is file-only and lives in {@link FileQuarantineStoreTest}.
 */
abstract class QuarantineStoreContract {

    static final long LARGE = 10L * 1024 * 1024;
    private final List<QuarantineStore> opened = new ArrayList<>();

    /** A new, empty store with the given limit. */
    protected abstract QuarantineStore createStore(long maxBytes) throws Exception;

    protected final QuarantineStore store(long maxBytes) throws Exception {
        QuarantineStore store = createStore(maxBytes);
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() throws Exception {
        for (QuarantineStore store : opened) {
            store.close();
        }
    }

    static QuarantineEntry entry(long id, FailureClass failureClass, byte[] item) {
        return new QuarantineEntry(id, failureClass, "rejected by destination " + id, "ERROR: constraint violated " + id,
                (int) (id % 7), Instant.ofEpochMilli(1_700_000_000_000L + id), Instant.ofEpochMilli(1_700_000_100_000L + id),
                item.length);
    }

    static byte[] item(long id) {
        return ("item-" + id).getBytes(StandardCharsets.UTF_8);
    }

    static QuarantineEntry add(QuarantineStore store, long id, FailureClass failureClass) throws Exception {
        QuarantineEntry entry = entry(id, failureClass, item(id));
        store.add(entry, item(id));
        return entry;
    }

    @Test
    void addedEntryIsReturnedWithItsBytesByGet() throws Exception {
        QuarantineStore store = store(LARGE);
        QuarantineEntry entry = add(store, 42, FailureClass.PERMANENT);

        Optional<QuarantinedItem> got = store.get(42);

        assertThat(got).isPresent();
        assertThat(got.get().entry()).isEqualTo(entry);
        assertThat(got.get().item()).isEqualTo(item(42));
        assertThat(store.contains(42)).isTrue();
        assertThat(store.size()).isEqualTo(1);
    }

    @Test
    void getAndContainsOfUnknownIdAreEmpty() throws Exception {
        QuarantineStore store = store(LARGE);
        add(store, 1, FailureClass.PERMANENT);

        assertThat(store.get(2)).isEmpty();
        assertThat(store.contains(2)).isFalse();
    }

    @Test
    void listIsNewestFirstAndPagesWithTotal() throws Exception {
        QuarantineStore store = store(LARGE);
        for (long id : new long[] {5, 1, 9, 3, 7}) {
            add(store, id, FailureClass.PERMANENT);
        }

        QuarantinePage first = store.list(0, 2, Optional.empty());
        QuarantinePage second = store.list(2, 2, Optional.empty());
        QuarantinePage last = store.list(4, 2, Optional.empty());
        QuarantinePage beyond = store.list(10, 2, Optional.empty());

        assertThat(ids(first)).containsExactly(9L, 7L);
        assertThat(ids(second)).containsExactly(5L, 3L);
        assertThat(ids(last)).containsExactly(1L);
        assertThat(beyond.entries()).isEmpty();
        assertThat(List.of(first.total(), second.total(), last.total(), beyond.total())).containsOnly(5L);
        assertThat(second.offset()).isEqualTo(2);
    }

    @Test
    void listFiltersByFailureClassAndCountsOnlyMatches() throws Exception {
        QuarantineStore store = store(LARGE);
        add(store, 1, FailureClass.PERMANENT);
        add(store, 2, FailureClass.UNKNOWN_OUTCOME);
        add(store, 3, FailureClass.PERMANENT);
        add(store, 4, FailureClass.UNKNOWN_OUTCOME);
        add(store, 5, FailureClass.UNKNOWN_OUTCOME);

        QuarantinePage unknown = store.list(1, 10, Optional.of(FailureClass.UNKNOWN_OUTCOME));
        QuarantinePage permanent = store.list(0, 10, Optional.of(FailureClass.PERMANENT));

        assertThat(ids(unknown)).containsExactly(4L, 2L);
        assertThat(unknown.total()).isEqualTo(3);
        assertThat(ids(permanent)).containsExactly(3L, 1L);
        assertThat(permanent.total()).isEqualTo(2);
        assertThat(store.list(0, 10, Optional.of(FailureClass.TRANSIENT)).total()).isZero();
    }

    @Test
    void negativeOffsetOrLimitIsRejected() throws Exception {
        QuarantineStore store = store(LARGE);
        assertThatThrownBy(() -> store.list(-1, 1, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.list(0, -1, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void removeDeletesTheEntryAndFreesItsBytes() throws Exception {
        QuarantineStore store = store(LARGE);
        add(store, 1, FailureClass.PERMANENT);
        long afterOne = store.usedBytes();
        add(store, 2, FailureClass.PERMANENT);

        assertThat(store.remove(2)).isTrue();

        assertThat(store.get(2)).isEmpty();
        assertThat(store.contains(2)).isFalse();
        assertThat(store.size()).isEqualTo(1);
        assertThat(store.usedBytes()).isEqualTo(afterOne);
        assertThat(ids(store.list(0, 10, Optional.empty()))).containsExactly(1L);
        assertThat(store.remove(2)).as("second remove of the same id").isFalse();
    }

    @Test
    void removeOfUnknownIdReturnsFalseAndChangesNothing() throws Exception {
        QuarantineStore store = store(LARGE);
        add(store, 1, FailureClass.PERMANENT);
        long used = store.usedBytes();

        assertThat(store.remove(99)).isFalse();

        assertThat(store.size()).isEqualTo(1);
        assertThat(store.usedBytes()).isEqualTo(used);
    }

    @Test
    void usedBytesCountsHeaderTextsAndItem() throws Exception {
        QuarantineStore store = store(LARGE);
        assertThat(store.usedBytes()).isZero();
        byte[] item = new byte[100];
        QuarantineEntry entry = new QuarantineEntry(7, FailureClass.PERMANENT, "räson", "fehler", 1,
                Instant.EPOCH, Instant.EPOCH, item.length);

        store.add(entry, item);

        // 51 fixed bytes + "räson" (6 UTF-8 bytes) + "fehler" (6) + item (100)
        assertThat(store.usedBytes()).isEqualTo(51 + 6 + 6 + 100);
        assertThat(store.maxBytes()).isEqualTo(LARGE);
    }

    @Test
    void duplicateIdIsRejectedAndTheFirstEntryKept() throws Exception {
        QuarantineStore store = store(LARGE);
        QuarantineEntry first = add(store, 5, FailureClass.PERMANENT);
        long used = store.usedBytes();
        byte[] other = "other".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> store.add(entry(5, FailureClass.UNKNOWN_OUTCOME, other), other))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5");

        assertThat(store.get(5).orElseThrow().entry()).isEqualTo(first);
        assertThat(store.get(5).orElseThrow().item()).isEqualTo(item(5));
        assertThat(store.usedBytes()).isEqualTo(used);
    }

    @Test
    void fullStoreRefusesWithUsedAndMaxAndStoresNothing() throws Exception {
        long oneEntry = QuarantineEntryFormat.encodedSize(entry(1, FailureClass.PERMANENT, item(1)));
        QuarantineStore store = store(2 * oneEntry);
        add(store, 1, FailureClass.PERMANENT);
        add(store, 2, FailureClass.PERMANENT);
        assertThat(store.usedBytes()).as("two entries fill the limit exactly").isEqualTo(2 * oneEntry);

        assertThatThrownBy(() -> add(store, 3, FailureClass.PERMANENT))
                .isInstanceOfSatisfying(QuarantineFullException.class, full -> {
                    assertThat(full.usedBytes()).isEqualTo(2 * oneEntry);
                    assertThat(full.maxBytes()).isEqualTo(2 * oneEntry);
                });

        assertThat(store.size()).isEqualTo(2);
        assertThat(store.contains(3)).isFalse();
        assertThat(store.get(3)).isEmpty();
        assertThat(store.usedBytes()).isEqualTo(2 * oneEntry);
        assertThat(store.list(0, 10, Optional.empty()).total()).isEqualTo(2);
        assertThat(store.remove(1)).isTrue();
        add(store, 3, FailureClass.PERMANENT);
        assertThat(store.contains(3)).as("room made by a remove is usable").isTrue();
    }

    @Test
    void itemLengthDifferentFromEntryItemBytesIsRejected() throws Exception {
        QuarantineStore store = store(LARGE);
        QuarantineEntry says3 = entry(1, FailureClass.PERMANENT, new byte[3]);

        assertThatThrownBy(() -> store.add(says3, new byte[4])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("itemBytes=3");
        assertThat(store.size()).isZero();
    }

    @Test
    void timesAreKeptToTheMillisecond() throws Exception {
        QuarantineStore store = store(LARGE);
        byte[] item = item(1);
        Instant first = Instant.parse("2026-11-30T04:35:01.123456789Z");
        Instant last = Instant.parse("2026-11-30T04:36:02.999999999Z");
        store.add(new QuarantineEntry(1, FailureClass.UNKNOWN_OUTCOME, "r", "e", 3, first, last, item.length), item);

        QuarantineEntry got = store.get(1).orElseThrow().entry();

        assertThat(got.firstFailure()).isEqualTo(Instant.parse("2026-11-30T04:35:01.123Z"));
        assertThat(got.lastFailure()).isEqualTo(Instant.parse("2026-11-30T04:36:02.999Z"));
        assertThat(store.list(0, 1, Optional.empty()).entries()).containsExactly(got);
    }

    @Test
    void emptyItemAndTextsAndUnicodeRoundTrip() throws Exception {
        QuarantineStore store = store(LARGE);
        QuarantineEntry empty = new QuarantineEntry(1, FailureClass.PERMANENT, "", "", 0, Instant.EPOCH,
                Instant.EPOCH, 0);
        byte[] binary = {0, -1, 127, -128, 10, 13};
        QuarantineEntry unicode = new QuarantineEntry(2, FailureClass.UNKNOWN_OUTCOME, "Zeitüberschreitung ⏱ 🚨",
                "列 \"temp\" 不存在\nline two", Integer.MAX_VALUE, Instant.EPOCH, Instant.ofEpochMilli(-1), binary.length);

        store.add(empty, new byte[0]);
        store.add(unicode, binary);

        assertThat(store.get(1).orElseThrow().entry()).isEqualTo(empty);
        assertThat(store.get(1).orElseThrow().item()).isEmpty();
        assertThat(store.get(2).orElseThrow().entry()).isEqualTo(unicode);
        assertThat(store.get(2).orElseThrow().item()).containsExactly(binary);
    }

    @Test
    void storeKeepsItsOwnCopyOfTheItem() throws Exception {
        QuarantineStore store = store(LARGE);
        byte[] item = item(1);
        store.add(entry(1, FailureClass.PERMANENT, item), item);
        item[0] = 'X';
        store.get(1).orElseThrow().item()[1] = 'Y';

        assertThat(store.get(1).orElseThrow().item()).isEqualTo(item(1));
    }

    @Test
    void closedStoreRefusesCalls() throws Exception {
        QuarantineStore store = store(LARGE);
        add(store, 1, FailureClass.PERMANENT);
        store.close();

        assertThatThrownBy(() -> add(store, 2, FailureClass.PERMANENT)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.list(0, 1, Optional.empty())).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.remove(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.get(1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void concurrentAddersRemoversAndListersSeeConsistentPages() throws Exception {
        QuarantineStore store = store(LARGE);
        int writers = 4;
        int perWriter = 48;
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 1; i <= perWriter; i++) {
                        long id = (long) writer * 1000 + i;
                        add(store, id, i % 2 == 0 ? FailureClass.PERMANENT : FailureClass.UNKNOWN_OUTCOME);
                        if (i % 4 == 0 && !store.remove(id - 1)) {
                            problems.add("remove of " + (id - 1) + " returned false");
                        }
                    }
                    return null;
                }));
            }
            for (int r = 0; r < 2; r++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 300; i++) {
                        QuarantinePage page = store.list(0, Integer.MAX_VALUE, Optional.empty());
                        List<Long> ids = ids(page);
                        if (ids.size() != page.total()) {
                            problems.add("page of " + ids.size() + " entries says total " + page.total());
                        }
                        for (int k = 1; k < ids.size(); k++) {
                            if (ids.get(k - 1) <= ids.get(k)) {
                                problems.add("not newest first: " + ids.get(k - 1) + " before " + ids.get(k));
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(20, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(problems).isEmpty();
        int expected = writers * (perWriter - perWriter / 4);
        assertThat(store.size()).isEqualTo(expected);
        long sum = 0;
        for (QuarantineEntry entry : store.list(0, Integer.MAX_VALUE, Optional.empty()).entries()) {
            sum += QuarantineEntryFormat.encodedSize(entry);
        }
        assertThat(store.usedBytes()).isEqualTo(sum);
    }

    static List<Long> ids(QuarantinePage page) {
        return page.entries().stream().map(QuarantineEntry::id).toList();
    }
}
