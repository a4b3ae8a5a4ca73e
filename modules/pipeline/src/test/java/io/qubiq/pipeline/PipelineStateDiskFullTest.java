package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saving the pipeline state on a full disk (ENOSPC injected through the store's write seam, in the
 * operating system's words) fails with an error that says so and names the file, keeps the previous
 * state file whole and leaves no temp file behind. Would catch: a torn state file, a bare I/O error,
 * a half-written temp file taking the last free bytes.
 */
class PipelineStateDiskFullTest {

    @TempDir
    Path dir;

    private static PipelineState state(long events) {
        return new PipelineState(true, Optional.empty(), events, 0, 0, events, 0, Optional.empty(),
                Optional.empty(), Optional.of(Instant.parse("2026-11-30T10:00:00Z")), Optional.empty());
    }

    @Test
    void aSaveOnAFullDiskSaysSoAndKeepsThePreviousStateWhole() throws IOException {
        AtomicBoolean diskFull = new AtomicBoolean();
        PipelineStateStore store = new PipelineStateStore(dir, (temp, bytes) -> {
            if (diskFull.get()) {
                Files.write(temp, java.util.Arrays.copyOf(bytes, bytes.length / 2)); // what fitted
                throw new IOException("No space left on device");
            }
            Files.write(temp, bytes);
        });
        store.save(Map.of("p", state(10)));

        diskFull.set(true);
        assertThatThrownBy(() -> store.save(Map.of("p", state(20))))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("the disk is full")
                .hasMessageContaining(dir.resolve("pipelines.properties").toString())
                .hasMessageContaining("previous state file is kept");
        assertThat(store.load()).containsEntry("p", state(10));
        assertThat(dir.resolve("pipelines.properties.tmp")).doesNotExist();

        diskFull.set(false);
        store.save(Map.of("p", state(30)));
        assertThat(store.load()).containsEntry("p", state(30));
    }
}
