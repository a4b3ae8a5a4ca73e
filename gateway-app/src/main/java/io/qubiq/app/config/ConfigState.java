package io.qubiq.app.config;

import io.qubiq.config.ConfigDiff;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The configuration that runs and the configuration the file holds, which differ while a written change
 * waits for a restart. Both carry the command-line overrides. The running one moves to the file's only
 * when every component of a change was applied live; after a partial apply it stays, so the components
 * still differing are all reported as waiting for a restart (a conservative answer, never a false
 * "running").
 *
 * <p>Threading: both fields are replaced together under this object's lock; readers get a consistent pair.
 */
public final class ConfigState {

    /** One consistent reading. */
    public record Pair(LoadedConfig running, LoadedConfig file) {
    }

    private Pair pair;

    public ConfigState(LoadedConfig started) {
        this.pair = new Pair(started, started);
    }

    public synchronized Pair read() {
        return pair;
    }

    /** The file now holds {@code file}; when {@code runsNow} the gateway runs it too. */
    public synchronized void fileChanged(LoadedConfig file, boolean runsNow) {
        pair = new Pair(runsNow ? file : pair.running(), file);
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
