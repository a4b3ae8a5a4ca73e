package io.qubiq.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A configuration as {@link ConfigLoader#bind} bound it: the root record, and each key whose value
 * came from the environment with the names of the variables its text referred to (key paths as in
 * {@link ConfigProblem}, in file order). Such a key is read-only for an editor: the file holds the
 * reference, not the value. {@code fromSecrets} names the keys whose value came from the secrets store
 * ({@code ${secret:NAME}}) with the secrets' names: those an editor may set, as a new secret. Immutable.
 */
public record BoundConfig<R extends Record>(R config, Map<String, List<String>> fromEnvironment,
                                            Map<String, List<String>> fromSecrets) {

    public BoundConfig {
        Objects.requireNonNull(config, "config");
        fromEnvironment = copy(fromEnvironment);
        fromSecrets = copy(fromSecrets);
    }

    public BoundConfig(R config, Map<String, List<String>> fromEnvironment) {
        this(config, fromEnvironment, Map.of());
    }

    private static Map<String, List<String>> copy(Map<String, List<String>> keys) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        keys.forEach((key, names) -> copy.put(key, List.copyOf(names)));
        return Collections.unmodifiableMap(copy);
    }
}
