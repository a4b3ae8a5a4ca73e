package io.qubiq.storeforward.quarantine;

import io.qubiq.fileops.StoreFormat;
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
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An add stopped part-way through writing its file, as by a crash (no cleanup runs) or by a failed
 * write (cleanup runs). Complements {@link QuarantineCrashTest}: a process kill almost never lands
 * inside the write itself, so here the write is cut at every byte on purpose.
 */
class InterruptedAddTest {

    private static final long MAX = 1024 * 1024;

    /** Stands for the process dying: not an IOException, so no cleanup code in the store runs. */
    private static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash() {
            super("simulated crash");
        }
    }

    @TempDir
    Path temp;

    @Test
    void addCrashingAtAnyByteOfItsWriteLeavesNoEntryAfterReopen() throws Exception {
        QuarantineEntry small = new QuarantineEntry(2, FailureClass.PERMANENT, "r", "e", 1, Instant.ofEpochMilli(1),
                Instant.ofEpochMilli(2), 1);
        byte[] whole = QuarantineEntryFormat.encode(small, new byte[] {7});

        for (int cut = 0; cut <= whole.length; cut++) {
            String context = "write cut after " + cut + " of " + whole.length + " bytes";
            Path dir = temp.resolve("cut-" + cut);
            try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
                add(store, 1, FailureClass.PERMANENT);
            }
            int keep = cut;
            FileQuarantineStore crashing = FileQuarantineStore.open(dir, MAX, (file, bytes) -> {
                Files.write(file, Arrays.copyOf(bytes, keep));
                throw new SimulatedCrash();
            });
            assertThatThrownBy(() -> crashing.add(small, new byte[] {7})).as(context)
                    .isInstanceOf(SimulatedCrash.class);
            crashing.close();

            try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX)) {
                assertThat(ids(store.list(0, 10, Optional.empty()))).as(context).containsExactly(1L);
                assertThat(store.setAside()).as(context + ": nothing committed, so nothing damaged").isZero();
                assertThat(store.get(1).orElseThrow().item()).as(context).isEqualTo(item(1));
                assertThat(filesIn(dir)).as(context).containsExactly("00000000000000000001.qentry",
                        StoreFormat.FILE_NAME, QuarantineDirectoryLock.FILE_NAME);
            }
        }
    }

    @Test
    void addWhoseWriteFailsStoresNothingNamesTheFileAndTheStoreStaysUsable() throws Exception {
        Path dir = temp.resolve("q");
        AtomicBoolean diskFull = new AtomicBoolean(true);
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, MAX, (file, bytes) -> {
            if (diskFull.get()) {
                Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
                throw new IOException("No space left on device");
            }
            QuarantineDirectory.DURABLE.writeAndForce(file, bytes);
        })) {
            assertThatThrownBy(() -> add(store, 1, FailureClass.PERMANENT)).isInstanceOf(IOException.class)
                    .hasMessageContaining(dir.resolve("00000000000000000001.qentry").toString())
                    .hasMessageContaining("No space left on device").hasMessageContaining("nothing was stored");

            assertThat(store.contains(1)).isFalse();
            assertThat(store.usedBytes()).isZero();
            assertThat(filesIn(dir)).containsExactly(StoreFormat.FILE_NAME, QuarantineDirectoryLock.FILE_NAME);

            diskFull.set(false);
            add(store, 1, FailureClass.PERMANENT);
            assertThat(store.get(1).orElseThrow().item()).isEqualTo(item(1));
        }
    }

    private static List<String> filesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
