package io.qubiq.pipeline.config;

import io.qubiq.core.config.ConfigChecked.Violation;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles the expressions of one part of a pipeline in the validation sandbox and records each
 * failure as a violation at its key, prefixed with the part's own key ({@code outputs[0]}). Owned by
 * one validation; not thread-safe.
 */
public final class ExpressionCheck {

    private final ExpressionEngine engine;
    private final String prefix;
    private final Set<String> known;
    private final List<Violation> violations;

    ExpressionCheck(ExpressionEngine engine, String prefix, Set<String> known, List<Violation> violations) {
        this.engine = engine;
        this.prefix = prefix;
        this.known = known;
        this.violations = violations;
    }

    /** An expression at {@code key}. */
    public void expression(String key, String source) {
        try {
            engine.compile(source, known);
        } catch (ExpressionException e) {
            violations.add(new Violation(prefix + key, e.getMessage()));
        }
    }

    /** Every expression of a map, each at {@code key.name}. */
    public void expressions(String key, Map<String, String> sources) {
        sources.forEach((name, source) -> expression(key + "." + name, source));
    }

    /** A text template with expressions in double braces. */
    public void template(String key, String source) {
        try {
            engine.compileTemplate(source, known);
        } catch (ExpressionException e) {
            violations.add(new Violation(prefix + key, e.getMessage()));
        }
    }
}
