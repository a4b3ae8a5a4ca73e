package io.qubiq.pipeline.expr;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.commons.jexl3.JexlArithmetic;
import org.apache.commons.jexl3.JexlEngine;
import org.apache.commons.jexl3.JexlOperator;
import org.apache.commons.jexl3.introspection.JexlMethod;
import org.apache.commons.jexl3.introspection.JexlPropertyGet;
import org.apache.commons.jexl3.introspection.JexlPropertySet;
import org.apache.commons.jexl3.introspection.JexlUberspect;

/**
 * JEXL's introspection with one wall added: a property may be read ({@code a.b}, {@code a['b']}, {@code a[name]})
 * only from a map (its field), a list or an array (its element). On any other value (a string, a number, an
 * instant, anything else) the read fails with a {@link LimitExceededException} naming the property and the
 * value's type, whatever the name, literal or computed: so {@code path['cl' + 'ass']} never reaches
 * {@code getClass()}, nor any other getter. Everything else is the wrapped introspection's (with its
 * permissions). Each read also charges the evaluation's {@link EvaluationBudget}.
 *
 * <p>Stateless wrapper; thread-safe as the wrapped introspection is.
 */
final class PropertyGate implements JexlUberspect {

    private final JexlUberspect inner;

    PropertyGate(JexlUberspect inner) {
        this.inner = inner;
    }

    /** Whether a property of {@code target} may be read at all. */
    static boolean readable(Object target) {
        return target instanceof Map<?, ?> || target instanceof List<?> || target != null && target.getClass().isArray();
    }

    @Override
    public JexlPropertyGet getPropertyGet(Object obj, Object identifier) {
        EvaluationBudget.current().ifPresent(EvaluationBudget::charge);
        return readable(obj) ? inner.getPropertyGet(obj, identifier) : new Refusal(obj, identifier);
    }

    @Override
    public JexlPropertyGet getPropertyGet(List<PropertyResolver> resolvers, Object obj, Object identifier) {
        EvaluationBudget.current().ifPresent(EvaluationBudget::charge);
        return readable(obj) ? inner.getPropertyGet(resolvers, obj, identifier) : new Refusal(obj, identifier);
    }

    @Override
    public JexlPropertySet getPropertySet(Object obj, Object identifier, Object arg) {
        return null; // the grammar has no assignments; nothing is ever written through an expression
    }

    @Override
    public JexlPropertySet getPropertySet(List<PropertyResolver> resolvers, Object obj, Object identifier, Object arg) {
        return null;
    }

    @Override
    public JexlArithmetic.Uberspect getArithmetic(JexlArithmetic arithmetic) {
        return inner.getArithmetic(arithmetic);
    }

    @Override
    public JexlOperator.Uberspect getOperator(JexlArithmetic arithmetic) {
        return inner.getOperator(arithmetic);
    }

    @Override
    public Class<?> getClassByName(String className) {
        return null; // no class is reachable by name
    }

    @Override
    public ClassLoader getClassLoader() {
        return inner.getClassLoader();
    }

    @Override
    public JexlMethod getConstructor(Object ctorHandle, Object... args) {
        return null;
    }

    @Override
    public Iterator<?> getIterator(Object obj) {
        return inner.getIterator(obj);
    }

    @Override
    public JexlMethod getMethod(Object obj, String method, Object... args) {
        EvaluationBudget.current().ifPresent(EvaluationBudget::charge);
        return inner.getMethod(obj, method, args);
    }

    @Override
    public List<PropertyResolver> getResolvers(JexlOperator op, Object obj) {
        return inner.getResolvers(op, obj);
    }

    @Override
    public int getVersion() {
        return inner.getVersion();
    }

    @Override
    public void setClassLoader(ClassLoader loader) {
        inner.setClassLoader(loader);
    }

    /** A read that always fails, saying why. */
    private record Refusal(Object target, Object identifier) implements JexlPropertyGet {
        @Override
        public Object invoke(Object obj) {
            throw new LimitExceededException("reads the property \"" + identifier + "\" of a "
                    + (obj == null ? "null" : obj.getClass().getSimpleName()) + " value; only map fields and list"
                    + " elements can be read");
        }

        @Override
        public Object tryInvoke(Object obj, Object key) {
            return JexlEngine.TRY_FAILED; // never cached as a shortcut: each read comes back through the gate
        }

        @Override
        public boolean tryFailed(Object rval) {
            return rval == JexlEngine.TRY_FAILED;
        }

        @Override
        public boolean isCacheable() {
            return false;
        }
    }
}
