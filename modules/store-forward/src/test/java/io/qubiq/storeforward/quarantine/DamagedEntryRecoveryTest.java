package io.qubiq.storeforward.quarantine;

import static io.qubiq.storeforward.quarantine.QuarantineStoreContract.add;
import static io.qubiq.storeforward.quarantine.QuarantineStoreContract.ids;
import static io.qubiq.storeforward.quarantine.QuarantineStoreContract.item;
import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.FailureClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Torn and bit-flipped entry files: opening never throws, the damaged file goes to {@code corrupt/}
 * with a note, and its neighbours are served intact.
 */
class DamagedEntryRecoveryTest {

    private static final long MAX = 1024 * 1024;
    private static final long DAMAGED = 2;
    private static final String DAMAGED_NAME = "00000000000000000002.qentry";

    @TempDir
    Path temp;

    private static final QuarantineEntry SMALL = new QuarantineEntry(DAMAGED, FailureClass.UNKNOWN_OUTCOME, "r",
            "e", 2, Instant.ofEpochMilli(1), Instant.ofEpochMilli(2), 1);
    private Path template;

    @BeforeEach
    void writeTemplate() throws Exception {
        template = temp.resolve("template");
        try (FileQuarantineStore store = FileQuarantineStore.open(template, MAX)) {
            add(store, 1, FailureClass.PERMANENT);
            store.add(SMALL, new byte[] {7}); // 54 bytes: every offset of every field is cut below
            add(store, 3, FailureClass.PERMANENT);
        }
    }

    /** A fresh directory holding copies of the three intact entry files 1, 2 and 3. */
    private Path directoryWithThreeEntries(String name) throws Exception {
        Path dir = Files.createDirectories(temp.resolve(name));
        for (String file : FileQuarantineStoreTest.entryFiles(template)) {
            Files.copy(template.resolve(file), dir.resolve(file));
        }
        return dir;
    }

    @Test
    void entryTruncatedAtEveryByteOffsetIsSetAsideAndTheOthersStayIntact() throws Exception {
        byte[] whole = Files.readAllBytes(template.resolve(DAMAGED_NAME));
        assertThat(whole.length).as("a small entry").isEqualTo(54);

        for (int length = 0; length < whole.length; length++) {
            Path dir = directoryWithThreeEntries("cut-" + length);
            Files.write(dir.resolve(DAMAGED_NAME), Arrays.copyOf(whole, length));

            assertDamagedEntrySetAside(dir, "truncated to " + length + " of " + whole.length + " bytes");
        }
    }

    @Test
    void entryWithFlippedBitsIsSetAsideAndTheOthersStayIntact() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        byte[] whole = Files.readAllBytes(template.resolve(DAMAGED_NAME));

        for (int trial = 0; trial < 40; trial++) {
            byte[] damaged = whole.clone();
            int flips = 1 + random.nextInt(3);
            StringBuilder where = new StringBuilder();
            for (int f = 0; f < flips; f++) {
                int bit = random.nextInt(damaged.length * 8);
                damaged[bit / 8] ^= (byte) (1 << (bit % 8));
                where.append(bit).append(' ');
            }
            if (Arrays.equals(damaged, whole)) {
                continue; // the same bit flipped twice: nothing to detect
            }
            Path dir = directoryWithThreeEntries("flip-" + trial);
            Files.write(dir.resolve(DAMAGED_NAME), damaged);

            assertDamagedEntrySetAside(dir, "seed " + seed + ", trial " + trial + ", bits flipped " + where);
        }
    }

    @Test
    void extraBytesAfterACompleteEntryAreDamage() throws Exception {
        Path dir = directoryWithThreeEntries("tail");
        Path file = dir.resolve(DAMAGED_NAME);
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length + 3));

        assertDamagedEntrySetAside(dir, "3 bytes appended");
    }

    @Test
    void entryOfAnUnknownFormatVersionIsSetAsideWithTheVersionInTheNote() throws Exception {
        Path dir = directoryWithThreeEntries("version");
        Path file = dir.resolve(DAMAGED_NAME);
        byte[] bytes = Files.readAllBytes(file);
        bytes[5] = 2; // version field, offset 4..5
        Files.write(file, bytes);

        assertDamagedEntrySetAside(dir, "version 2");
        assertThat(dir.resolve("corrupt").resolve(DAMAGED_NAME + ".note")).content().contains("version");
    }

    private static void assertDamagedEntrySetAside(Path dir, String damage) throws Exception {
        FileQuarantineStore opened;
        try {
            opened = FileQuarantineStore.open(dir, MAX);
        } catch (Exception e) {
            throw new AssertionError("open threw for " + damage, e);
        }
        try (FileQuarantineStore store = opened) {
            assertThat(store.setAside()).as(damage).isEqualTo(1);
            assertThat(ids(store.list(0, 10, Optional.empty()))).as(damage).containsExactly(3L, 1L);
            assertThat(store.contains(DAMAGED)).as(damage).isFalse();
            assertThat(store.get(1).orElseThrow().item()).as(damage).isEqualTo(item(1));
            assertThat(store.get(3).orElseThrow().item()).as(damage).isEqualTo(item(3));
            assertThat(store.usedBytes()).as(damage)
                    .isEqualTo(Files.size(dir.resolve("00000000000000000001.qentry"))
                            + Files.size(dir.resolve("00000000000000000003.qentry")));
        }
        Path corrupt = dir.resolve("corrupt");
        assertThat(dir.resolve(DAMAGED_NAME)).as(damage).doesNotExist();
        assertThat(corrupt.resolve(DAMAGED_NAME)).as(damage).exists();
        assertThat(corrupt.resolve(DAMAGED_NAME + ".note")).as(damage).content()
                .contains("Problem:").contains(dir.resolve(DAMAGED_NAME).toString());
    }
}
