package io.qubiq.audit;

import static io.qubiq.audit.Entries.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.health.ConnectionState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local audit store's contract: order, filters, paging, idempotent re-delivery, sequence, retention. */
class LocalAuditStoreTest {

    static final Instant NOW = Instant.parse("2025-06-01T00:00:00Z");

    @TempDir
    Path temp;

    private final List<LocalAuditStore> opened = new ArrayList<>();

    @AfterEach
    void closeStores() {
        opened.forEach(LocalAuditStore::close);
    }

    private LocalAuditStore store(AuditConfig config) {
        LocalAuditStore store = new LocalAuditStore("audit", temp.resolve("journal"), config,
                Clock.fixed(NOW, ZoneOffset.UTC));
        opened.add(store);
        return store;
    }

    private LocalAuditStore store() {
        return store(AuditConfig.defaults());
    }

    private static List<JournalEntry> entries(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(Entries::entry).toList();
    }

    private static List<Integer> numbers(JournalPage page) {
        return page.entries().stream().map(stored -> Entries.number(stored.entry())).toList();
    }

    @Test
    void queriesAnswerNewestFirstWithIncreasingSequenceNumbers() throws Exception {
        LocalAuditStore store = store();
        store.write(entries(0, 3));
        store.write(entries(3, 2));

        JournalPage page = store.query(JournalQuery.newest(10));

        assertThat(numbers(page)).containsExactly(4, 3, 2, 1, 0);
        assertThat(page.entries()).extracting(StoredEntry::seq).containsExactly(5L, 4L, 3L, 2L, 1L);
        assertThat(page.entries().get(0).entry()).isEqualTo(entry(4));
        assertThat(page.next()).isEmpty();
    }

    @Test
    void pagesFollowOneAnotherThroughTheNextCursorWithoutGapsOrRepeats() throws Exception {
        LocalAuditStore store = store(AuditConfig.defaults().withStoreLimits(1 << 20, 4096, Optional.empty()));
        store.write(entries(0, 120));

        List<Integer> seen = new ArrayList<>();
        JournalQuery query = JournalQuery.newest(25);
        int pages = 0;
        while (true) {
            JournalPage page = store.query(query);
            pages++;
            seen.addAll(numbers(page));
            if (page.next().isEmpty()) {
                break;
            }
            query = query.withBefore(page.next().getAsLong());
        }

        assertThat(pages).isEqualTo(5);
        assertThat(seen).containsExactlyElementsOf(IntStream.range(0, 120).map(i -> 119 - i).boxed().toList());
        assertThat(Files.list(temp.resolve("journal")).filter(f -> f.toString().endsWith(".journal")).count())
                .as("entries span several segments").isGreaterThan(3);
    }

    @Test
    void aFullLastPageHasNoNextWhenNothingOlderMatches() throws Exception {
        LocalAuditStore store = store();
        store.write(entries(0, 4));
        assertThat(store.query(JournalQuery.newest(4)).next()).isEmpty();
        assertThat(store.query(JournalQuery.newest(3)).next()).isEqualTo(OptionalLong.of(2));
    }

    @Test
    void everyFilterFieldNarrowsTheAnswer() throws Exception {
        LocalAuditStore store = store();
        store.write(List.of(
                entry(0, "alice", AuditAction.QUARANTINE_RETRY, "retried"),
                entry(1, "Bob", AuditAction.QUARANTINE_DROP, "dropped"),
                entry(2, "alice", AuditAction.SIGN_IN_FAILED, "wrong password"),
                new JournalEntry(2000, new AuditEvent(Entries.T0.plusSeconds(3), "carol", AuditAction.TAG_WRITE,
                        "tag/Line1/Setpoint", "written", Map.of("value", "42.5 °C")))));

        assertThat(numbersOrIds(store.query(query(q -> q.user("ALI"))))).containsExactly(2, 0);
        assertThat(numbersOrIds(store.query(query(q -> q.action("quarantine_drop"))))).containsExactly(1);
        assertThat(numbersOrIds(store.query(query(q -> q.action("quarantine"))))).as("action matches exactly").isEmpty();
        assertThat(numbersOrIds(store.query(query(q -> q.outcome("PASSWORD"))))).containsExactly(2);
        assertThat(numbersOrIds(store.query(query(q -> q.text("°c"))))).as("text searches details").containsExactly(2000);
        assertThat(numbersOrIds(store.query(query(q -> q.text("item/1"))))).as("text searches the target")
                .containsExactly(1);
        assertThat(numbersOrIds(store.query(query(q -> q.from(Entries.T0.plusSeconds(1)).to(Entries.T0.plusSeconds(2))))))
                .as("from and to are inclusive").containsExactly(2, 1);
        assertThat(numbersOrIds(store.query(query(q -> q.user("alice").action("sign_in_failed"))))).containsExactly(2);
        assertThat(numbersOrIds(store.query(query(q -> q.before(3))))).as("before is exclusive").containsExactly(1, 0);
    }

    @Test
    void aReDeliveredBatchIsStoredOnce() throws Exception {
        LocalAuditStore store = store();
        store.write(entries(0, 5));
        store.write(entries(3, 4)); // 3 and 4 again, then 5 and 6
        store.write(List.of(entry(7), entry(7)));

        JournalPage page = store.query(JournalQuery.newest(100));
        assertThat(numbers(page)).containsExactly(7, 6, 5, 4, 3, 2, 1, 0);
        assertThat(page.entries()).extracting(StoredEntry::seq).containsExactly(8L, 7L, 6L, 5L, 4L, 3L, 2L, 1L);
    }

    @Test
    void aReDeliveryAfterReopeningIsStoredOnceAndSequenceNumbersContinue() throws Exception {
        LocalAuditStore first = store();
        first.write(entries(0, 5));
        first.close();

        LocalAuditStore second = store();
        second.write(entries(2, 6));

        JournalPage page = second.query(JournalQuery.newest(100));
        assertThat(numbers(page)).containsExactly(7, 6, 5, 4, 3, 2, 1, 0);
        assertThat(page.entries().get(0).seq()).isEqualTo(8);
        assertThat(second.highestId()).isEqualTo(1007);
    }

    @Test
    void retentionBySizeDeletesWholeOldestSegmentsAndKeepsTheNewest() throws Exception {
        LocalAuditStore store = store(AuditConfig.defaults().withStoreLimits(200_000, 65536, Optional.empty())
                .withMinAgeDays(0));
        for (int i = 0; i < 40; i++) {
            store.write(entries(i * 100, 100));
        }

        assertThat(store.sizeBytes()).isLessThanOrEqualTo(200_000);
        JournalPage all = collectAll(store);
        List<Integer> numbers = numbers(all);
        assertThat(numbers.get(0)).isEqualTo(3999);
        // what is left is the newest run, complete and in order
        int oldest = numbers.get(numbers.size() - 1);
        assertThat(oldest).isGreaterThan(0);
        assertThat(numbers).containsExactlyElementsOf(IntStream.rangeClosed(oldest, 3999).map(i -> 3999 - i + oldest)
                .boxed().toList());
        assertThat(all.entries().get(0).seq()).as("sequence numbers are not reused").isEqualTo(4000);
    }

    /**
     * Catches a flood rotating the journal: 8,000 refused requests deleted the segment holding "first
     * administrator created" from a 1 MiB journal within seconds. Retention by size now spares every
     * segment written to within min_age_days, and deletes it by size only once it is older.
     */
    @Test
    void retentionBySizeSparesSegmentsWrittenWithinTheMinimumAge() throws Exception {
        LocalAuditStore store = store(AuditConfig.defaults().withStoreLimits(1 << 20, 65536, Optional.empty())
                .withMinAgeDays(1));
        store.write(List.of(entry(0, "admin", AuditAction.SETUP_CLAIM, "first administrator created")));
        for (int i = 0; i < 100; i++) {
            store.write(entries(1 + i * 100, 100));
        }
        for (Path segment : segmentFiles()) {
            Files.setLastModifiedTime(segment, FileTime.from(NOW.minus(23, ChronoUnit.HOURS)));
        }
        store.write(List.of(entry(20_000)));

        assertThat(store.sizeBytes()).as("over max_bytes while young").isGreaterThan(1 << 20);
        assertThat(firstAdministrator(store)).hasSize(1);

        for (Path segment : segmentFiles()) {
            Files.setLastModifiedTime(segment, FileTime.from(NOW.minus(25, ChronoUnit.HOURS)));
        }
        store.write(List.of(entry(20_001)));

        assertThat(store.sizeBytes()).isLessThanOrEqualTo(1 << 20);
        assertThat(firstAdministrator(store)).as("older than the minimum age, size decides").isEmpty();
    }

    /**
     * Catches the founding entry being rotated away by size: retention carries an entry marked
     * {@code keep: always} forward, with its id, time and content, before deleting its segment.
     */
    @Test
    void anEntryMarkedKeepAlwaysIsCarriedForwardInsteadOfDeleted() throws Exception {
        LocalAuditStore store = store(AuditConfig.defaults().withStoreLimits(200_000, 65536, Optional.empty())
                .withMinAgeDays(0));
        JournalEntry founding = new JournalEntry(999, new AuditEvent(Entries.T0, "admin", AuditAction.SETUP_CLAIM,
                "user/admin", "first administrator created", Map.of(AuditAction.DETAIL_FROM, "10.0.0.1",
                AuditAction.DETAIL_KEEP, AuditAction.KEEP_ALWAYS)));
        store.write(List.of(founding));
        for (int i = 0; i < 40; i++) {
            store.write(entries(i * 100, 100));
        }

        assertThat(collectAll(store).entries()).extracting(stored -> stored.entry().id()).as("old entries went")
                .doesNotContain(1000L);
        assertThat(firstAdministrator(store)).singleElement().satisfies(kept -> {
            assertThat(kept.entry().id()).isEqualTo(999);
            assertThat(kept.entry().event().at()).isEqualTo(Entries.T0);
            assertThat(kept.entry().event().details()).containsEntry(LocalAuditStore.DETAIL_CARRIED_FROM, "1")
                    .containsEntry(AuditAction.DETAIL_KEEP, AuditAction.KEEP_ALWAYS);
        });
        assertThat(store.sizeBytes()).isLessThanOrEqualTo(200_000);
    }

    private static List<StoredEntry> firstAdministrator(LocalAuditStore store) {
        return store.query(new JournalQuery(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("setup_claim"), Optional.of("first administrator created"), Optional.empty(),
                OptionalLong.empty(), 10)).entries();
    }

    @Test
    void retentionByAgeDeletesSegmentsLastWrittenTooLongAgoButNeverTheNewest() throws Exception {
        AuditConfig config = AuditConfig.defaults().withStoreLimits(1 << 30, 65536, Optional.of(30));
        LocalAuditStore store = store(config);
        store.write(entries(0, 500));
        store.write(entries(500, 500));
        List<Path> segments = segmentFiles();
        assertThat(segments.size()).isGreaterThan(2);
        for (Path segment : segments) {
            Files.setLastModifiedTime(segment, FileTime.from(NOW.minus(31, ChronoUnit.DAYS)));
        }
        Files.setLastModifiedTime(segments.get(segments.size() - 2), FileTime.from(NOW.minus(29, ChronoUnit.DAYS)));

        store.write(List.of(entry(1000)));

        assertThat(segmentFiles()).containsExactlyElementsOf(segments.subList(segments.size() - 2, segments.size()));
        store.close();
        for (Path segment : segmentFiles()) {
            Files.setLastModifiedTime(segment, FileTime.from(NOW.minus(400, ChronoUnit.DAYS)));
        }
        LocalAuditStore reopened = store(config);
        reopened.write(List.of(entry(1001)));
        assertThat(segmentFiles()).hasSize(1);
        assertThat(numbers(reopened.query(JournalQuery.newest(1)))).containsExactly(1001);
    }

    @Test
    void anEntryTooLargeForASegmentIsPermanentAndNothingOfTheBatchIsWritten() throws Exception {
        LocalAuditStore store = store(AuditConfig.defaults().withStoreLimits(1 << 20, 65536, Optional.empty()));
        JournalEntry huge = new JournalEntry(5, new AuditEvent(Entries.T0, "alice", AuditAction.TAG_WRITE, "tag/x",
                "written", Map.of("value", "x".repeat(70_000))));

        assertThatThrownBy(() -> store.write(List.of(entry(0), huge, entry(2))))
                .isInstanceOf(PermanentException.class)
                .satisfies(e -> assertThat(((PermanentException) e).rejected())
                        .extracting(PermanentException.RejectedItem::index).containsExactly(1));
        assertThat(store.query(JournalQuery.newest(10)).entries()).isEmpty();
    }

    @Test
    void anUnwritableDirectoryIsTransientAndProbesDownThenRecoversWhenFixed() throws Exception {
        Path blocker = temp.resolve("journal");
        Files.writeString(blocker, "not a directory");
        LocalAuditStore store = store();

        assertThatThrownBy(() -> store.write(entries(0, 2))).isInstanceOf(TransientException.class)
                .hasMessageContaining("journal");
        assertThat(store.probe().state()).isEqualTo(ConnectionState.DOWN);

        Files.delete(blocker);
        store.write(entries(0, 2));
        assertThat(store.probe().state()).isEqualTo(ConnectionState.UP);
        assertThat(numbers(store.query(JournalQuery.newest(5)))).containsExactly(1, 0);
    }

    private List<Path> segmentFiles() throws Exception {
        try (Stream<Path> files = Files.list(temp.resolve("journal"))) {
            return files.filter(f -> f.toString().endsWith(".journal")).sorted().toList();
        }
    }

    private static JournalPage collectAll(LocalAuditStore store) {
        List<StoredEntry> all = new ArrayList<>();
        JournalQuery query = JournalQuery.newest(1000);
        while (true) {
            JournalPage page = store.query(query);
            all.addAll(page.entries());
            if (page.next().isEmpty()) {
                return new JournalPage(all, OptionalLong.empty());
            }
            query = query.withBefore(page.next().getAsLong());
        }
    }

    private static List<Integer> numbersOrIds(JournalPage page) {
        return page.entries().stream().map(stored -> (int) (stored.entry().id() >= 2000 ? stored.entry().id()
                : stored.entry().id() - 1000)).toList();
    }

    /** A small builder so each filter line reads as what it asks. */
    private static final class Q {
        Optional<Instant> from = Optional.empty();
        Optional<Instant> to = Optional.empty();
        Optional<String> user = Optional.empty();
        Optional<String> action = Optional.empty();
        Optional<String> outcome = Optional.empty();
        Optional<String> text = Optional.empty();
        OptionalLong before = OptionalLong.empty();

        Q from(Instant value) { from = Optional.of(value); return this; }
        Q to(Instant value) { to = Optional.of(value); return this; }
        Q user(String value) { user = Optional.of(value); return this; }
        Q action(String value) { action = Optional.of(value); return this; }
        Q outcome(String value) { outcome = Optional.of(value); return this; }
        Q text(String value) { text = Optional.of(value); return this; }
        Q before(long value) { before = OptionalLong.of(value); return this; }
    }

    private static JournalQuery query(java.util.function.UnaryOperator<Q> filter) {
        Q q = filter.apply(new Q());
        return new JournalQuery(q.from, q.to, q.user, q.action, q.outcome, q.text, q.before, 100);
    }
}
