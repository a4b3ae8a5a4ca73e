package io.qubiq.pipeline.expr;

import org.apache.commons.jexl3.JexlException;
import org.apache.commons.jexl3.JexlScript;
import org.apache.commons.jexl3.MapContext;

/**
 * A compiled, sandboxed expression. Each evaluation runs within its {@link ExpressionLimits} (elements, string
 * length, time), tracked by an {@link EvaluationBudget} on the evaluating thread. Immutable and safe to evaluate
 * from several threads.
 */
public final class Expression {

    private final String source;
    private final JexlScript compiled;
    private final ExpressionLimits limits;

    Expression(String source, JexlScript compiled, ExpressionLimits limits) {
        this.source = source;
        this.compiled = compiled;
        this.limits = limits;
    }

    /**
     * The expression's value in {@code scope}: a String, Number, Boolean, Instant, List, Map or null.
     *
     * @throws ExpressionException when evaluation fails (a null operand, a type mismatch, a
     *     function's error, a property that is no map field or list element, a limit of
     *     {@link ExpressionLimits} exceeded), naming the expression
     */
    public Object evaluate(Scope scope) throws ExpressionException {
        try (EvaluationBudget budget = EvaluationBudget.open(limits)) {
            Object value = Values.normalize(compiled.execute(new MapContext(scope.asMap())), budget);
            budget.checkTime();
            return value;
        } catch (JexlException | ArithmeticException | IllegalArgumentException | ClassCastException
                 | LimitExceededException e) {
            throw new ExpressionException("\"" + source + "\" failed: " + describe(e), e);
        }
    }

    /** The value as a boolean, for filters. */
    public boolean test(Scope scope) throws ExpressionException {
        Object value = evaluate(scope);
        if (value instanceof Boolean bool) {
            return bool;
        }
        throw new ExpressionException("\"" + source + "\" must be true or false, was "
                + (value == null ? "null" : value + " (" + value.getClass().getSimpleName() + ")"));
    }

    public String source() {
        return source;
    }

    static String describe(Exception e) {
        Throwable cause = e;
        while (cause instanceof JexlException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return message.replaceAll("\\s+", " ").trim();
    }

    @Override
    public String toString() {
        return source;
    }
}
