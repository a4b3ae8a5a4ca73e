package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Wrote the format-version-1 fixture under {@code src/test/resources/quarantine/format-v1/} once,
 * through the real store. Keep it, but do not rerun it to "fix" {@link QuarantineFormatV1FixtureTest}:
 * the fixture stands for files already on customers' disks. A new format version gets a new
 * fixture directory and a new writer.
 *
 * <p>Run: {@code java -cp <test classpath> io.qubiq.storeforward.quarantine.QuarantineFormatV1FixtureWriter
 * modules/store-forward/src/test/resources/quarantine/format-v1}
 */
public final class QuarantineFormatV1FixtureWriter {

    private QuarantineFormatV1FixtureWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        if (Files.exists(dir)) {
            throw new IllegalStateException(dir + " exists; a fixture is written once, never regenerated");
        }
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, 1024 * 1024)) {
            byte[] json = "{\"tag\":\"Line1/Temp\",\"v\":21.5}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            store.add(new QuarantineEntry(1, FailureClass.PERMANENT, "duplicate key rejected by PostgreSQL",
                    "ERROR: duplicate key value violates unique constraint \"readings_pkey\" (SQLSTATE 23505)", 1,
                    Instant.parse("2026-11-30T04:00:00.123Z"), Instant.parse("2026-11-30T04:00:00.123Z"),
                    json.length), json);
            byte[] everyByte = new byte[256];
            for (int i = 0; i < everyByte.length; i++) {
                everyByte[i] = (byte) i;
            }
            store.add(new QuarantineEntry(2, FailureClass.UNKNOWN_OUTCOME, "Zeitüberschreitung nach dem Senden ⏱",
                    "timeout after 30000 ms", 5, Instant.parse("2026-11-29T23:59:59.999Z"),
                    Instant.parse("2026-11-30T00:10:00Z"), everyByte.length), everyByte);
            store.add(new QuarantineEntry(3, FailureClass.TRANSIENT, "", "", 0, Instant.EPOCH, Instant.EPOCH, 0),
                    new byte[0]);
            store.add(new QuarantineEntry(9_007_199_254_740_993L, FailureClass.CONFIGURATION, "bad column mapping",
                    "column \"vaule\" does not exist", Integer.MAX_VALUE, Instant.ofEpochMilli(-1),
                    Instant.parse("2262-04-11T23:47:16.854Z"), 3), new byte[] {1, 2, 3});
        }
        Files.delete(dir.resolve(QuarantineDirectoryLock.FILE_NAME));
    }
}
