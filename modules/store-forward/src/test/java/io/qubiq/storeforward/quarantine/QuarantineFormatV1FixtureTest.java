package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.FailureClass;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written in format version 1 (committed under {@code src/test/resources/quarantine/format-v1/}
 * by {@link QuarantineFormatV1FixtureWriter}) must keep opening with exactly these values, and the
 * encoder must keep producing exactly these bytes. If this fails, the change broke files on disk.
 */
class QuarantineFormatV1FixtureTest {

    private static final QuarantineEntry DUPLICATE_KEY = new QuarantineEntry(1, FailureClass.PERMANENT,
            "duplicate key rejected by PostgreSQL",
            "ERROR: duplicate key value violates unique constraint \"readings_pkey\" (SQLSTATE 23505)", 1,
            Instant.parse("2026-11-30T04:00:00.123Z"), Instant.parse("2026-11-30T04:00:00.123Z"), 29);
    private static final byte[] DUPLICATE_KEY_ITEM =
            "{\"tag\":\"Line1/Temp\",\"v\":21.5}".getBytes(StandardCharsets.UTF_8);
    private static final QuarantineEntry TIMEOUT = new QuarantineEntry(2, FailureClass.UNKNOWN_OUTCOME,
            "Zeitüberschreitung nach dem Senden ⏱", "timeout after 30000 ms", 5,
            Instant.parse("2026-11-29T23:59:59.999Z"), Instant.parse("2026-11-30T00:10:00Z"), 256);
    private static final QuarantineEntry EMPTY = new QuarantineEntry(3, FailureClass.TRANSIENT, "", "", 0,
            Instant.EPOCH, Instant.EPOCH, 0);
    private static final QuarantineEntry LARGE_ID = new QuarantineEntry(9_007_199_254_740_993L,
            FailureClass.CONFIGURATION, "bad column mapping", "column \"vaule\" does not exist", Integer.MAX_VALUE,
            Instant.ofEpochMilli(-1), Instant.parse("2262-04-11T23:47:16.854Z"), 3);

    @TempDir
    Path temp;
    private Path dir;

    @BeforeEach
    void copyFixture() throws Exception {
        Path fixture = Path.of(getClass().getResource("/quarantine/format-v1").toURI());
        dir = Files.createDirectories(temp.resolve("format-v1"));
        try (Stream<Path> files = Files.list(fixture)) {
            for (Path file : files.toList()) {
                Files.copy(file, dir.resolve(file.getFileName()));
            }
        }
        assertThat(FileQuarantineStoreTest.entryFiles(dir)).hasSize(4);
    }

    @Test
    void versionOneFilesOpenWithExactFieldValuesAndItems() throws Exception {
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, 1024 * 1024)) {
            assertThat(store.setAside()).isZero();
            assertThat(store.size()).isEqualTo(4);
            assertThat(store.usedBytes()).isEqualTo(202 + 368 + 51 + 101);
            assertThat(store.list(0, 10, Optional.empty()).entries())
                    .containsExactly(LARGE_ID, EMPTY, TIMEOUT, DUPLICATE_KEY);

            assertThat(store.get(1).orElseThrow()).satisfies(got -> {
                assertThat(got.entry()).isEqualTo(DUPLICATE_KEY);
                assertThat(got.item()).isEqualTo(DUPLICATE_KEY_ITEM);
            });
            assertThat(store.get(2).orElseThrow().item()).isEqualTo(everyByte());
            assertThat(store.get(3).orElseThrow().item()).isEmpty();
            assertThat(store.get(9_007_199_254_740_993L).orElseThrow().item()).containsExactly(1, 2, 3);
        }
    }

    @Test
    void encoderStillWritesTheVersionOneBytes() throws Exception {
        assertThat(QuarantineEntryFormat.encode(DUPLICATE_KEY, DUPLICATE_KEY_ITEM))
                .isEqualTo(Files.readAllBytes(dir.resolve("00000000000000000001.qentry")));
        assertThat(QuarantineEntryFormat.encode(TIMEOUT, everyByte()))
                .isEqualTo(Files.readAllBytes(dir.resolve("00000000000000000002.qentry")));
        assertThat(QuarantineEntryFormat.encode(EMPTY, new byte[0]))
                .isEqualTo(Files.readAllBytes(dir.resolve("00000000000000000003.qentry")));
        assertThat(QuarantineEntryFormat.encode(LARGE_ID, new byte[] {1, 2, 3}))
                .isEqualTo(Files.readAllBytes(dir.resolve("00009007199254740993.qentry")));
    }

    @Test
    void headerFieldsSitAtTheDocumentedOffsets() throws Exception {
        ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("00009007199254740993.qentry")));

        assertThat(file.getInt(0)).as("magic 'QUAR'").isEqualTo(0x51554152);
        assertThat(file.getShort(4)).as("version").isEqualTo((short) 1);
        assertThat(file.getLong(6)).as("id").isEqualTo(9_007_199_254_740_993L);
        assertThat(file.get(14)).as("failure class code of CONFIGURATION").isEqualTo((byte) 4);
        assertThat(file.getInt(15)).as("attempts").isEqualTo(Integer.MAX_VALUE);
        assertThat(file.getLong(19)).as("first failure millis").isEqualTo(-1L);
        assertThat(file.getLong(27)).as("last failure millis").isEqualTo(9_223_372_036_854L);
        assertThat(file.getInt(35)).as("reason length").isEqualTo(18);
        assertThat(file.capacity()).as("51 + reason + error + item").isEqualTo(51 + 18 + 29 + 3);
        List<Byte> codes = List.of(
                ByteBuffer.wrap(Files.readAllBytes(dir.resolve("00000000000000000001.qentry"))).get(14),
                ByteBuffer.wrap(Files.readAllBytes(dir.resolve("00000000000000000002.qentry"))).get(14),
                ByteBuffer.wrap(Files.readAllBytes(dir.resolve("00000000000000000003.qentry"))).get(14));
        assertThat(codes).as("codes of PERMANENT, UNKNOWN_OUTCOME, TRANSIENT").containsExactly((byte) 2, (byte) 3,
                (byte) 1);
    }

    private static byte[] everyByte() {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }
}
