package io.qubiq.pipeline.expr;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The variables one evaluation sees: the trigger's (path, value, topic, ...), the pipeline's
 * (pipeline, now) and the results of the transforms evaluated so far. Owned by one event's
 * processing on one thread; not thread-safe.
 */
public final class Scope {

    private final Map<String, Object> variables;

    public Scope(Map<String, Object> variables) {
        this.variables = new HashMap<>(variables);
    }

    public Object get(String name) {
        return variables.get(name);
    }

    public boolean has(String name) {
        return variables.containsKey(name);
    }

    /** Binds {@code name} for the expressions that follow (a transform's result). */
    public void set(String name, Object value) {
        variables.put(name, value);
    }

    public Set<String> names() {
        return variables.keySet();
    }

    Map<String, Object> asMap() {
        return variables;
    }
}
