package io.qubiq.app.config;

import io.qubiq.config.ConfigDiff;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The configuration that runs and the configuration the file holds, which differ while a written change
 * waits for a restart, and the components that wait ({@code pending}). Both carry the command-line
 * overrides. A change's components that were applied live leave the pending set, those that need a
 * restart join it, and the others keep their state; the running record moves to the file's once
 * nothing is pending. So after a partial apply exactly the components still waiting are reported, and
 * the running record shown is the last one that ran whole.
 *
 * <p>Threading: both fields are replaced together under this object's lock; readers get a consistent pair.
 */
public final class ConfigState {

    /** One consistent reading. */
    public record Pair(LoadedConfig running, LoadedConfig file, List<String> pending) {
        public Pair {
            pending = List.copyOf(pending);
        }
    }

    private Pair pair;

    public ConfigState(LoadedConfig started) {
        this.pair = new Pair(started, started, List.of());
    }

    public synchronized Pair read() {
        return pair;
    }

    /**
     * The file now holds {@code file}; of the components it changed, {@code applied} run it now and
     * {@code needRestart} wait for a restart of the gateway.
     */
    public synchronized void fileChanged(LoadedConfig file, List<String> applied, List<String> needRestart) {
        Set<String> pending = new LinkedHashSet<>(pair.pending());
        pending.addAll(needRestart);
        applied.forEach(pending::remove);
        pair = new Pair(pending.isEmpty() ? file : pair.running(), file, List.copyOf(pending));
    }

    /** The components {@link RunningConfigAccess#componentOf} names for every key that differs. */
    static List<String> componentsChanged(LoadedConfig before, LoadedConfig after) {
        if (before == after) {
            return List.of();
        }
        Set<String> components = new LinkedHashSet<>();
        ConfigDiff.between(before.config(), after.config())
                .forEach(change -> RunningConfigAccess.componentOf(change.key()).ifPresent(components::add));
        return List.copyOf(components);
    }
}
