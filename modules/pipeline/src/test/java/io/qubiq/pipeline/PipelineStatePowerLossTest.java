package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.powerloss.CrashReplays;
import io.qubiq.fileops.powerloss.FileOp;
import io.qubiq.fileops.powerloss.RecordingFileOps;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss at every point of the crash model ({@link io.qubiq.fileops.powerloss.CrashStates})
 * for the pipeline state file: the state is saved again and again (an operator's enable or
 * disable among the saves) through a {@link RecordingFileOps}; every state a power cut could leave
 * is replayed into a fresh directory and loaded there. Asserted for each state:
 *
 * <ul>
 *   <li>loading never fails and never finds a torn file (nothing is moved aside as unreadable);
 *   <li>what loads is one of the saved states, and at least as new as the last one whose {@code
 *       save} returned: an operator's choice, once saved, survives power loss.
 * </ul>
 *
 * <p>What it would catch: a rename before the temp file's fsync (a torn or empty file), and a save
 * that returns before the rename is durable (the operator's choice comes back undone).
 */
class PipelineStatePowerLossTest {

    private static final int SAVES = 20;

    record Saving(long events) {
    }

    record Saved(long events) {
    }

    @TempDir
    Path temp;

    @Test
    void everyCrashStateLoadsTheLastSavedStateOrANewerOneAndNeverATornFile() throws Exception {
        Path recorded = Files.createDirectories(temp.resolve("recorded"));
        RecordingFileOps files = new RecordingFileOps(recorded);
        PipelineStateStore store = new PipelineStateStore(recorded.resolve("state"), files);
        for (long n = 1; n <= SAVES; n++) {
            files.note(new Saving(n));
            store.save(Map.of("p", state(n)));
            files.note(new Saved(n));
        }
        List<FileOp> log = files.log();
        CrashReplays.Result result = CrashReplays.run("pipeline state", log, temp,
                (state, dir) -> check(state.notesBefore(log), dir));
        assertThat(result.failures()).as("crash states that broke a promise").isEmpty();
    }

    private static String check(List<Object> notes, Path dir) {
        long saving = 0;
        long saved = 0;
        for (Object note : notes) {
            if (note instanceof Saving s) {
                saving = s.events();
            } else if (note instanceof Saved s) {
                saved = s.events();
            }
        }
        PipelineStateStore store = new PipelineStateStore(dir.resolve("state"), FileOps.system());
        Map<String, PipelineState> loaded;
        try {
            loaded = store.load();
        } catch (java.io.IOException e) {
            return "the state file was refused: " + e.getMessage();
        }
        if (Files.exists(store.file().resolveSibling("pipelines.properties.corrupt"))) {
            return "the state file was unreadable and was moved aside";
        }
        long events = loaded.isEmpty() ? 0 : loaded.get("p").events();
        if (!loaded.isEmpty() && !loaded.get("p").equals(state(events))) {
            return "loaded a state that was never saved: " + loaded;
        }
        if (events < saved) {
            return "loaded the state of save " + events + ", but save " + saved + " had returned";
        }
        if (events > saving) {
            return "loaded the state of save " + events + ", never begun";
        }
        return null;
    }

    /** Save {@code n}: the enabled flag flips with each save, as an operator's choice would. */
    private static PipelineState state(long n) {
        return new PipelineState(n % 2 == 0, Optional.of(n % 2 == 0), n, n / 2, 0, n, 0, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }
}
