package io.qubiq.pipeline.expr;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns what JEXL returns into the value types outputs understand: arrays become lists, recursively. */
final class Values {

    private Values() {
    }

    static Object normalize(Object value) {
        if (value != null && value.getClass().isArray()) {
            int length = Array.getLength(value);
            List<Object> list = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                list.add(normalize(Array.get(value, i)));
            }
            return list;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(element -> copy.add(normalize(element)));
            return copy;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, element) -> copy.put(String.valueOf(key), normalize(element)));
            return copy;
        }
        return value;
    }
}
