package io.qubiq.storeforward.quarantine;

import static io.qubiq.storeforward.quarantine.QuarantineStoreContract.add;
import static io.qubiq.storeforward.quarantine.QuarantineStoreContract.entry;
import static io.qubiq.storeforward.quarantine.QuarantineStoreContract.ids;
import static io.qubiq.storeforward.quarantine.QuarantineStoreContract.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.error.FailureClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the file store promises: files, durability across reopen, recovery, locking. */
class FileQuarantineStoreTest {

    private static final long MAX = 1024 * 1024;

    @TempDir
    Path temp;

    @Test
    void entriesSurviveCloseAndReopenWithExactFieldsAndBytes() throws Exception {
        Path dir = temp.resolve("q");
        QuarantinePage before;
        long used;
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            for (long id = 1; id <= 5; id++) {
                add(store, id, id % 2 == 0 ? FailureClass.PERMANENT : FailureClass.UNKNOWN_OUTCOME);
            }
            store.remove(3);
            before = store.list(0, 100, Optional.empty());
            used = store.usedBytes();
        }

        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            assertThat(store.list(0, 100, Optional.empty())).isEqualTo(before);
            assertThat(ids(before)).containsExactly(5L, 4L, 2L, 1L);
            assertThat(store.usedBytes()).isEqualTo(used);
            assertThat(store.setAside()).isZero();
            for (long id : new long[] {1, 2, 4, 5}) {
                QuarantinedItem got = store.get(id).orElseThrow();
                assertThat(got.entry()).isEqualTo(entry(id, got.entry().failureClass(), item(id)));
                assertThat(got.item()).isEqualTo(item(id));
            }
            assertThat(store.get(3)).isEmpty();
        }
    }

    @Test
    void eachEntryIsOneFileNamedByItsZeroPaddedIdAndUsedBytesIsTheirSum() throws Exception {
        Path dir = temp.resolve("q");
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            add(store, 7, FailureClass.PERMANENT);
            add(store, 1234567890123L, FailureClass.PERMANENT);

            assertThat(entryFiles(dir)).containsExactly("00000000000000000007.qentry", "00000001234567890123.qentry");
            long sum = Files.size(dir.resolve("00000000000000000007.qentry"))
                    + Files.size(dir.resolve("00000001234567890123.qentry"));
            assertThat(store.usedBytes()).isEqualTo(sum);

            store.remove(7);
            assertThat(entryFiles(dir)).containsExactly("00000001234567890123.qentry");
        }
    }

    @Test
    void leftoverTempFileFromAnInterruptedAddIsDeletedOnOpenAndNotListed() throws Exception {
        Path dir = temp.resolve("q");
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            add(store, 1, FailureClass.PERMANENT);
        }
        // An add that wrote its whole temp file but died before the rename: not committed.
        QuarantineEntry uncommitted = entry(2, FailureClass.PERMANENT, item(2));
        Path leftover = dir.resolve("00000000000000000002.qentry.tmp");
        Files.write(leftover, QuarantineEntryFormat.encode(uncommitted, item(2)));
        Path torn = dir.resolve("00000000000000000003.qentry.tmp");
        Files.write(torn, new byte[] {0x51, 0x55});

        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            assertThat(leftover).doesNotExist();
            assertThat(torn).doesNotExist();
            assertThat(ids(store.list(0, 10, Optional.empty()))).containsExactly(1L);
            assertThat(store.contains(2)).isFalse();
            assertThat(store.setAside()).as("a temp file is not damage, just an uncommitted add").isZero();
            add(store, 2, FailureClass.PERMANENT);
            assertThat(store.get(2).orElseThrow().item()).isEqualTo(item(2));
        }
    }

    @Test
    void secondOpenOfTheSameDirectoryIsRefusedUntilTheFirstCloses() throws Exception {
        Path dir = temp.resolve("q");
        FileQuarantineStore first = FileQuarantineStore.open(dir, MAX);
        add(first, 1, FailureClass.PERMANENT);

        assertThatThrownBy(() -> FileQuarantineStore.open(dir, MAX))
                .isInstanceOfSatisfying(QuarantineLockedException.class, locked ->
                        assertThat(locked.holderPid()).hasValue(ProcessHandle.current().pid()))
                .hasMessageContaining(dir.toString());

        first.close();
        try (FileQuarantineStore second = FileQuarantineStore.open(dir, MAX)) {
            assertThat(second.contains(1)).isTrue();
        }
    }

    @Test
    void filesTheStoreDidNotWriteAreLeftAloneAndNotListed() throws Exception {
        Path dir = temp.resolve("q");
        Files.createDirectories(dir);
        Path readme = Files.writeString(dir.resolve("README.txt"), "operator notes");
        Path shortName = Files.writeString(dir.resolve("7.qentry"), "not ours");

        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            assertThat(store.size()).isZero();
            assertThat(store.setAside()).isZero();
        }
        assertThat(readme).hasContent("operator notes");
        assertThat(shortName).hasContent("not ours");
    }

    @Test
    void entryDamagedAfterOpenIsSetAsideWhenReadAndNamedInTheError() throws Exception {
        Path dir = temp.resolve("q");
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            add(store, 1, FailureClass.PERMANENT);
            add(store, 2, FailureClass.PERMANENT);
            Path file = dir.resolve("00000000000000000001.qentry");
            byte[] bytes = Files.readAllBytes(file);
            bytes[bytes.length - 6] ^= 0x10; // inside the item
            Files.write(file, bytes);

            assertThatThrownBy(() -> store.get(1))
                    .isInstanceOfSatisfying(QuarantineEntryCorruptException.class,
                            e -> assertThat(e.file()).isEqualTo(file))
                    .hasMessageContaining(file.toString()).hasMessageContaining("checksum")
                    .hasMessageContaining("corrupt");

            assertThat(store.contains(1)).isFalse();
            assertThat(store.setAside()).isEqualTo(1);
            assertThat(store.usedBytes()).isEqualTo(Files.size(dir.resolve("00000000000000000002.qentry")));
            assertThat(dir.resolve("corrupt/00000000000000000001.qentry")).exists();
            assertThat(dir.resolve("corrupt/00000000000000000001.qentry.note")).content().contains("checksum");
            assertThat(store.get(2).orElseThrow().item()).isEqualTo(item(2));
        }
    }

    @Test
    void entryWhoseHeaderIdDiffersFromItsFileNameIsSetAside() throws Exception {
        Path dir = temp.resolve("q");
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            add(store, 1, FailureClass.PERMANENT);
        }
        Files.move(dir.resolve("00000000000000000001.qentry"), dir.resolve("00000000000000000009.qentry"));

        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            assertThat(store.size()).isZero();
            assertThat(store.setAside()).isEqualTo(1);
            assertThat(dir.resolve("corrupt/00000000000000000009.qentry.note")).content()
                    .contains("header says id 1");
        }
    }

    @Test
    void reopeningWithASmallerLimitKeepsEveryEntryButRefusesAdds() throws Exception {
        Path dir = temp.resolve("q");
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            add(store, 1, FailureClass.PERMANENT);
            add(store, 2, FailureClass.PERMANENT);
        }

        try (FileQuarantineStore store = FileQuarantineStore.open(dir, 10)) {
            assertThat(store.size()).isEqualTo(2);
            assertThat(store.usedBytes()).isGreaterThan(store.maxBytes());
            assertThatThrownBy(() -> add(store, 3, FailureClass.PERMANENT)).isInstanceOf(QuarantineFullException.class);
            assertThat(entryFiles(dir)).hasSize(2);
        }
    }

    @Test
    void listingAndReadingDoNotWaitForAnotherEntrysDiskWrite() throws Exception {
        Path dir = temp.resolve("q");
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            add(store, 1, FailureClass.PERMANENT);
        }
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        QuarantineDirectory.FileWrite slowDisk = (file, bytes) -> {
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            QuarantineDirectory.DURABLE.writeAndForce(file, bytes);
        };
        ExecutorService threads = Executors.newFixedThreadPool(2);
        FileQuarantineStore store = FileQuarantineStore.open(dir, MAX, slowDisk);
        try {
            Future<?> stuckAdd = threads.submit(() -> add(store, 2, FailureClass.PERMANENT));
            assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();

            // On another thread, so a read that waits for the add fails by timeout instead of hanging.
            Future<?> reads = threads.submit(() -> {
                assertThat(ids(store.list(0, 10, Optional.empty()))).containsExactly(1L);
                assertThat(store.get(1).orElseThrow().item()).isEqualTo(item(1));
                assertThat(store.contains(2)).as("not listed before it is committed").isFalse();
                assertThat(store.size()).isEqualTo(1);
                return null;
            });
            reads.get(5, TimeUnit.SECONDS);
            assertThat(stuckAdd).isNotDone();

            release.countDown();
            stuckAdd.get(10, TimeUnit.SECONDS);
            assertThat(ids(store.list(0, 10, Optional.empty()))).containsExactly(2L, 1L);
        } finally {
            release.countDown();
            threads.shutdown();
            threads.awaitTermination(10, TimeUnit.SECONDS);
            store.close();
        }
    }

    @Test
    void openCreatesAMissingDirectory() throws Exception {
        Path dir = temp.resolve("a/b/quarantine");
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
            assertThat(dir).isDirectory();
            assertThat(store.size()).isZero();
        }
    }

    static List<String> entryFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".qentry")).sorted().toList();
        }
    }
}
