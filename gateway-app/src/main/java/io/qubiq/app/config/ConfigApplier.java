package io.qubiq.app.config;

import io.qubiq.console.ConfigChanges;
import java.util.List;
import java.util.Set;

/**
 * Makes the running gateway match a configuration that was just written, component by component:
 * {@code device:<id>}, {@code outbound:<id>}, {@code pipeline:<id>}, {@code historian} or {@code gateway}
 * (the names of {@link RunningConfigAccess#componentOf}). A component it cannot change while running is
 * answered as needing a restart of the gateway, never reported as applied.
 *
 * <p>Called by one thread at a time (the configuration API serialises writes).
 */
public interface ConfigApplier {

    /**
     * What {@link #apply} did.
     *
     * @param applied     the components now running with the new configuration
     * @param needRestart the components that keep the old configuration until the gateway restarts
     */
    record Applied(List<String> applied, List<String> needRestart) {
        public Applied {
            applied = List.copyOf(applied);
            needRestart = List.copyOf(needRestart);
        }
    }

    /** Applies {@code after} to the {@code components} that differ from {@code before}. */
    Applied apply(LoadedConfig before, LoadedConfig after, Set<String> components);

    /**
     * {@link #apply} with the operator's choices for buffered data the change affects ({@link #backlogsAffected});
     * {@code user} is who chose, for the loss ledger.
     */
    default Applied apply(LoadedConfig before, LoadedConfig after, Set<String> components,
                          ConfigChanges.Choices choices, String user) {
        return apply(before, after, components);
    }

    /**
     * The channels whose buffered data applying {@code after} would affect and that need the operator's choice
     * first: a {@code max_bytes} lowered below the backlog ({@code onShrink}); nothing by default.
     */
    default List<ConfigChanges.Backlog> backlogsAffected(LoadedConfig before, LoadedConfig after,
                                                        Set<String> components) {
        return List.of();
    }

    /** Applies nothing live: every changed component waits for a restart of the gateway. */
    static ConfigApplier restartRequired() {
        return (before, after, components) -> new Applied(List.of(), List.copyOf(components));
    }
}
