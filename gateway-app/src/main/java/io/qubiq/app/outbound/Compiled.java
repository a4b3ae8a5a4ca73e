package io.qubiq.app.outbound;

import io.qubiq.pipeline.expr.Expression;
import io.qubiq.pipeline.expr.ExpressionEngine;
import io.qubiq.pipeline.expr.ExpressionException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Compiles a name -> expression map of a mapping section, keeping its order. */
final class Compiled {

    private Compiled() {
    }

    static Map<String, Expression> all(Map<String, String> sources, ExpressionEngine engine, Set<String> variables)
            throws ExpressionException {
        Map<String, Expression> compiled = new LinkedHashMap<>();
        for (Map.Entry<String, String> source : sources.entrySet()) {
            compiled.put(source.getKey(), engine.compile(source.getValue(), variables));
        }
        return compiled;
    }
}
