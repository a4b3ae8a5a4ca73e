package io.qubiq.pipeline.expr;

import java.util.List;

/**
 * A compiled text template: literal text with expressions in double braces, as in
 * {@code plant/{{path}}/value}. ({@code ${...}} is taken by the configuration's environment
 * variables.) Each placeholder is a sandboxed {@link Expression}; its value is rendered with
 * {@link Functions#str}. Immutable and safe to render from several threads.
 */
public final class Template {

    /** One piece: literal text, or an expression (then {@code text} is null). */
    record Part(String text, Expression expression) {
    }

    private final String source;
    private final List<Part> parts;

    Template(String source, List<Part> parts) {
        this.source = source;
        this.parts = List.copyOf(parts);
    }

    /** @throws ExpressionException when a placeholder fails to evaluate */
    public String render(Scope scope, Functions functions) throws ExpressionException {
        StringBuilder out = new StringBuilder();
        for (Part part : parts) {
            out.append(part.expression() == null ? part.text() : functions.str(part.expression().evaluate(scope)));
        }
        return out.toString();
    }

    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return source;
    }
}
