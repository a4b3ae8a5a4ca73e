package io.qubiq.pipeline.expr;

/**
 * An expression that cannot be used: it does not parse, uses a construct the sandbox forbids
 * (object creation, method calls, loops, assignments, pragmas), or names something that is not
 * one of its pipeline's variables or functions. Or, at run time, one that failed to evaluate.
 * The message names the expression and what to change.
 */
public final class ExpressionException extends Exception {

    public ExpressionException(String message, Throwable cause) {
        super(message, cause);
    }

    public ExpressionException(String message) {
        super(message);
    }
}
