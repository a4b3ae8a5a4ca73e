package io.qubiq.storeforward.quarantine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * Opens a real file quarantine whose entry writes fail with the operating system's words for a full
 * disk ("No space left on device") while {@code diskFull} says so: for channel tests in other
 * packages (the write seam is package-private).
 */
public final class FullDiskQuarantines {

    private FullDiskQuarantines() {
    }

    public static FileQuarantineStore open(Path dir, long maxBytes, BooleanSupplier diskFull) throws IOException {
        return FileQuarantineStore.open(dir, maxBytes, (file, bytes) -> {
            if (diskFull.getAsBoolean()) {
                throw new IOException("No space left on device");
            }
            QuarantineDirectory.DURABLE.writeAndForce(file, bytes);
        });
    }
}
