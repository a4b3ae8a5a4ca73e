package io.qubiq.pipeline.expr;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns what JEXL returns into the value types outputs understand: arrays and other collections (ranges) become
 * lists, recursively, each element counted against the evaluation's {@link EvaluationBudget}; strings are
 * checked against its length limit.
 */
final class Values {

    private Values() {
    }

    static Object normalize(Object value, EvaluationBudget budget) {
        if (value != null && value.getClass().isArray()) {
            int length = Array.getLength(value);
            budget.countElements(length);
            List<Object> list = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                list.add(normalize(Array.get(value, i), budget));
            }
            return list;
        }
        if (value instanceof Collection<?> collection) {
            budget.countElements(collection.size());
            List<Object> copy = new ArrayList<>(collection.size());
            collection.forEach(element -> copy.add(normalize(element, budget)));
            return copy;
        }
        if (value instanceof Map<?, ?> map) {
            budget.countElements(map.size());
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, element) -> copy.put(String.valueOf(key), normalize(element, budget)));
            return copy;
        }
        if (value instanceof CharSequence text) {
            budget.checkString(text);
        }
        return value;
    }
}
