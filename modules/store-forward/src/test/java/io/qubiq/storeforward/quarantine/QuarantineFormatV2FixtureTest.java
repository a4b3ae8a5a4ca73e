package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written in format version 2 (entries of items retried and quarantined again, committed under
 * {@code src/test/resources/quarantine/format-v2/} by {@link QuarantineFormatV2FixtureWriter}) must
 * keep opening with exactly these values, and the encoder must keep producing exactly these bytes.
 * Version-1 files are covered by {@link QuarantineFormatV1FixtureTest}, which also pins that an entry
 * without history is still written as version 1.
 */
class QuarantineFormatV2FixtureTest {

    static final byte[] RETRIED_ONCE_ITEM = "{\"tag\":\"Line2/Flow\",\"v\":1e309}".getBytes(StandardCharsets.UTF_8);
    static final QuarantineEntry RETRIED_ONCE =
            QuarantineFormatV2FixtureWriter.entry(942, 4, List.of(939L), RETRIED_ONCE_ITEM.length);
    static final QuarantineEntry RETRIED_TWICE =
            QuarantineFormatV2FixtureWriter.entry(9_007_199_254_740_993L, 7, List.of(5L, 9_007_199_254_740_000L), 1);

    @TempDir
    Path temp;
    private Path dir;

    @BeforeEach
    void copyFixture() throws Exception {
        Path fixture = Path.of(getClass().getResource("/quarantine/format-v2").toURI());
        dir = Files.createDirectories(temp.resolve("format-v2"));
        try (Stream<Path> files = Files.list(fixture)) {
            for (Path file : files.toList()) {
                Files.copy(file, dir.resolve(file.getFileName()));
            }
        }
    }

    // Catches: a format change that loses the history (previous ids) of entries already on disk.
    @Test
    void versionTwoFilesOpenWithTheirPreviousIds() throws Exception {
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, 1024 * 1024)) {
            assertThat(store.setAside()).isZero();
            assertThat(store.list(0, 10, Optional.empty()).entries()).containsExactly(RETRIED_TWICE, RETRIED_ONCE);
            assertThat(store.get(942).orElseThrow().item()).isEqualTo(RETRIED_ONCE_ITEM);
            assertThat(store.usedBytes()).isEqualTo(Files.size(dir.resolve("00000000000000000942.qentry"))
                    + Files.size(dir.resolve("00009007199254740993.qentry")));
        }
    }

    // Catches: the encoder drifting from the bytes version-2 files have.
    @Test
    void encoderStillWritesTheVersionTwoBytes() throws Exception {
        assertThat(QuarantineEntryFormat.encode(RETRIED_ONCE, RETRIED_ONCE_ITEM))
                .isEqualTo(Files.readAllBytes(dir.resolve("00000000000000000942.qentry")));
        assertThat(QuarantineEntryFormat.encode(RETRIED_TWICE, new byte[] {7}))
                .isEqualTo(Files.readAllBytes(dir.resolve("00009007199254740993.qentry")));
    }

    @Test
    void thePreviousIdsSitBetweenTheErrorAndTheItem() throws Exception {
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("00000000000000000942.qentry")));
        int reason = file.getInt(35);
        int error = file.getInt(39 + reason);
        int at = 43 + reason + error;

        assertThat(file.getShort(4)).as("version").isEqualTo((short) 2);
        assertThat(file.getInt(at)).as("count of previous ids").isEqualTo(1);
        assertThat(file.getLong(at + 4)).as("previous id").isEqualTo(939L);
        assertThat(file.getInt(at + 12)).as("item length").isEqualTo(RETRIED_ONCE_ITEM.length);
        assertThat(file.capacity()).as("55 + reason + error + 8 per id + item")
                .isEqualTo(55 + reason + error + 8 + RETRIED_ONCE_ITEM.length);
    }
}
