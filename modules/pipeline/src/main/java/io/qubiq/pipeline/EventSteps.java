package io.qubiq.pipeline;

import io.qubiq.pipeline.config.PipelineConfig;
import io.qubiq.pipeline.config.TransformConfig;
import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import io.qubiq.pipeline.expr.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A pipeline's filter and transforms, compiled: what happens to an event before its outputs map it. One
 * place for a running {@link Pipeline} and a {@link PipelineTrial}, so a try runs exactly what the pipeline
 * would. Immutable; {@link #apply} may be called from any thread with its own scope.
 */
record EventSteps(Optional<Expression> filter, List<Map.Entry<String, Expression>> transforms) {

    /** @throws ExpressionException when the filter or a transform does not compile */
    static EventSteps of(PipelineConfig config, ExpressionEngine engine) throws ExpressionException {
        Set<String> known = Set.copyOf(config.variables());
        Optional<Expression> filter = config.filter().isPresent()
                ? Optional.of(engine.compile(config.filter().get(), known))
                : Optional.empty();
        List<Map.Entry<String, Expression>> compiled = new ArrayList<>();
        for (TransformConfig transform : config.transforms()) {
            compiled.add(Map.entry(transform.name(), engine.compile(transform.expression(), known)));
        }
        return new EventSteps(filter, List.copyOf(compiled));
    }

    /**
     * Tests the filter and, when the event passes, sets each transform's value in {@code scope} in order.
     *
     * @return false when the filter turned the event away (no transform ran)
     * @throws ExpressionException when the filter or a transform failed to evaluate
     */
    boolean apply(Scope scope) throws ExpressionException {
        if (filter.isPresent() && !filter.get().test(scope)) {
            return false;
        }
        for (Map.Entry<String, Expression> transform : transforms) {
            scope.set(transform.getKey(), transform.getValue().evaluate(scope));
        }
        return true;
    }
}
