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
 * reference, not the value. Immutable.
 */
public record BoundConfig<R extends Record>(R config, Map<String, List<String>> fromEnvironment) {

    public BoundConfig {
        Objects.requireNonNull(config, "config");
        Map<String, List<String>> copy = new LinkedHashMap<>();
        fromEnvironment.forEach((key, variables) -> copy.put(key, List.copyOf(variables)));
        fromEnvironment = Collections.unmodifiableMap(copy);
    }
}
