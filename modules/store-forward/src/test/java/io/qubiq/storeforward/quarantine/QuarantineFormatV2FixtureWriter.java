package io.qubiq.storeforward.quarantine;

import io.qubiq.core.error.FailureClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Wrote the format-version-2 fixture (entries with previous ids) under
 * {@code src/test/resources/quarantine/format-v2/} once, through the real store. Keep it, but do
 * not rerun it to "fix" {@link QuarantineFormatV2FixtureTest}: the fixture stands for files already
 * on disk.
 *
 * <p>Run: {@code java -cp <test classpath> io.qubiq.storeforward.quarantine.QuarantineFormatV2FixtureWriter
 * modules/store-forward/src/test/resources/quarantine/format-v2}
 */
public final class QuarantineFormatV2FixtureWriter {

    private QuarantineFormatV2FixtureWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        if (Files.exists(dir)) {
            throw new IllegalStateException(dir + " exists; a fixture is written once, never regenerated");
        }
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, 1024 * 1024)) {
            store.add(QuarantineFormatV2FixtureTest.RETRIED_ONCE, QuarantineFormatV2FixtureTest.RETRIED_ONCE_ITEM);
            store.add(QuarantineFormatV2FixtureTest.RETRIED_TWICE, new byte[] {7});
        }
        Files.delete(dir.resolve(QuarantineDirectoryLock.FILE_NAME));
    }

    static QuarantineEntry entry(long id, int attempts, List<Long> previousIds, int itemBytes) {
        return new QuarantineEntry(id, FailureClass.PERMANENT, "row rejected: value out of range",
                "ERROR: numeric field overflow (SQLSTATE 22003)", attempts, Instant.parse("2026-12-01T10:00:00.001Z"),
                Instant.parse("2026-12-02T08:00:00.002Z"), itemBytes, previousIds);
    }
}
