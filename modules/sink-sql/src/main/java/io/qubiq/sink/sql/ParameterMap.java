package io.qubiq.sink.sql;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The parameters of a {@link SqlRow}: an immutable map that keeps insertion order and allows null
 * values, held as two arrays. A row has a handful of parameters, so a lookup scans the names, and
 * a caller that knows where a name usually is (the sink binding a statement's parameters, in
 * statement order) passes that position as a hint and finds it with one comparison. Equality and
 * hash code are those of {@link Map}.
 *
 * <p>Immutable and thread-safe; every mutator throws {@link UnsupportedOperationException}.
 */
final class ParameterMap extends AbstractMap<String, Object> {

    static final ParameterMap EMPTY = new ParameterMap(new String[0], new Object[0]);

    private final String[] names;
    private final Object[] values;

    /** Takes the arrays as they are: the caller checked the names (distinct, valid) and values. */
    ParameterMap(String[] names, Object[] values) {
        this.names = names;
        this.values = values;
    }

    String name(int index) {
        return names[index];
    }

    Object value(int index) {
        return values[index];
    }

    /** The position of {@code name}, trying {@code hint} first; -1 when absent. */
    int indexOf(String name, int hint) {
        if (hint >= 0 && hint < names.length) {
            String candidate = names[hint];
            if (candidate == name || candidate.equals(name)) {
                return hint;
            }
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i] == name || names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof String name && indexOf(name, -1) >= 0;
    }

    @Override
    public Object get(Object key) {
        int index = key instanceof String name ? indexOf(name, -1) : -1;
        return index < 0 ? null : values[index];
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < names.length;
                    }

                    @Override
                    public Entry<String, Object> next() {
                        if (next >= names.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(names[i], values[i]);
                    }
                };
            }

            @Override
            public int size() {
                return names.length;
            }
        };
    }
}
