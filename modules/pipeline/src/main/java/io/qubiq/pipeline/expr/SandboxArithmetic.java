package io.qubiq.pipeline.expr;

import java.math.MathContext;
import java.util.regex.Pattern;
import org.apache.commons.jexl3.JexlArithmetic;

/**
 * JEXL's arithmetic with the sandbox's size and time limits: every operator charges the evaluation's
 * {@link EvaluationBudget}; a range ({@code a .. b}) is refused above {@link ExpressionLimits#maxElements} elements
 * before anything is allocated; a string built by {@code +} is refused above {@link ExpressionLimits#maxStringChars};
 * a shift moves at most {@value #MAX_SHIFT} bits (so {@code 1H << 2000000000} cannot allocate a giant number);
 * a regular expression match ({@code =~} with a string or pattern) checks the time budget while it runs, so a
 * pattern that backtracks for ever is stopped.
 *
 * <p>Stateless itself (the budget is the evaluating thread's); one instance serves every evaluation.
 */
final class SandboxArithmetic extends JexlArithmetic {

    static final int MAX_SHIFT = 63;

    SandboxArithmetic(boolean strict) {
        super(strict);
    }

    private SandboxArithmetic(boolean strict, MathContext context, int scale) {
        super(strict, context, scale);
    }

    @Override
    protected JexlArithmetic createWithOptions(boolean strict, MathContext context, int scale) {
        return new SandboxArithmetic(strict, context, scale);
    }

    @Override
    public Iterable<?> createRange(Object from, Object to) throws ArithmeticException {
        long size = Math.abs(toLong(to) - toLong(from)) + 1;
        EvaluationBudget.current().ifPresent(budget -> {
            budget.charge();
            if (size > budget.limits().maxElements()) {
                throw new LimitExceededException("a range of " + size + " elements is over the limit of "
                        + budget.limits().maxElements());
            }
        });
        return super.createRange(from, to);
    }

    @Override
    public Object add(Object left, Object right) {
        Object sum = super.add(left, right);
        EvaluationBudget.current().ifPresent(budget -> {
            budget.charge();
            if (sum instanceof CharSequence text) {
                budget.checkString(text);
            }
        });
        return sum;
    }

    @Override
    public Object subtract(Object left, Object right) {
        charge();
        return super.subtract(left, right);
    }

    @Override
    public Object multiply(Object left, Object right) {
        charge();
        return super.multiply(left, right);
    }

    @Override
    public Object divide(Object left, Object right) {
        charge();
        return super.divide(left, right);
    }

    @Override
    public Object shiftLeft(Object left, Object right) {
        charge();
        return super.shiftLeft(left, checkedShift(right));
    }

    @Override
    public Object shiftRight(Object left, Object right) {
        charge();
        return super.shiftRight(left, checkedShift(right));
    }

    @Override
    public Object shiftRightUnsigned(Object left, Object right) {
        charge();
        return super.shiftRightUnsigned(left, checkedShift(right));
    }

    @Override
    public Boolean contains(Object container, Object value) {
        charge();
        if (value != null && (container instanceof Pattern || container instanceof CharSequence)) {
            Pattern pattern = container instanceof Pattern p ? p : Pattern.compile(container.toString());
            if (pattern.pattern().length() > REGEX_PATTERN_MAX_LENGTH) {
                return super.contains(container, value); // JEXL refuses it with its own message
            }
            Object budget = EvaluationBudget.current().orElse(null);
            CharSequence text = budget == null ? value.toString()
                    : new BudgetedText(value.toString(), (EvaluationBudget) budget);
            return pattern.matcher(text).matches();
        }
        return super.contains(container, value);
    }

    private static void charge() {
        EvaluationBudget.current().ifPresent(EvaluationBudget::charge);
    }

    private Object checkedShift(Object right) {
        long bits = toLong(right);
        if (bits < 0 || bits > MAX_SHIFT) {
            throw new LimitExceededException("a shift by " + bits + " bits; at most " + MAX_SHIFT + " are allowed");
        }
        return right;
    }

    /** Text that charges the budget as a regular expression reads it. */
    private record BudgetedText(String text, EvaluationBudget budget) implements CharSequence {
        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            budget.charge();
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new BudgetedText(text.substring(start, end), budget);
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
