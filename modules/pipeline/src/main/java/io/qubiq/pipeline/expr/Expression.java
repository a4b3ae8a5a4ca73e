package io.qubiq.pipeline.expr;

import org.apache.commons.jexl3.JexlException;
import org.apache.commons.jexl3.JexlScript;
import org.apache.commons.jexl3.MapContext;

/** A compiled, sandboxed expression. Immutable and safe to evaluate from several threads. */
public final class Expression {

    private final String source;
    private final JexlScript compiled;

    Expression(String source, JexlScript compiled) {
        this.source = source;
        this.compiled = compiled;
    }

    /**
     * The expression's value in {@code scope}: a String, Number, Boolean, Instant, List, Map or null.
     *
     * @throws ExpressionException when evaluation fails (a null operand, a type mismatch, a
     *     function's error), naming the expression
     */
    public Object evaluate(Scope scope) throws ExpressionException {
        try {
            return Values.normalize(compiled.execute(new MapContext(scope.asMap())));
        } catch (JexlException | ArithmeticException | IllegalArgumentException | ClassCastException e) {
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
