package io.qubiq.pipeline.expr;

/**
 * An evaluation went past one of its {@link ExpressionLimits}, or reached for something the sandbox does not
 * expose. Thrown from inside JEXL (arithmetic, introspection) and turned into an {@link ExpressionException}
 * by {@link Expression#evaluate}; never leaves this package.
 */
final class LimitExceededException extends RuntimeException {

    LimitExceededException(String message) {
        super(message, null, false, false);
    }
}
