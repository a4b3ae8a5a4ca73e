package io.qubiq.sink.questdb;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The symbols or the columns of one {@link QuestDbRow}: an unmodifiable, insertion-ordered map
 * over a slice of the row's two parallel arrays, the names (shared by every row of a
 * {@link QuestDbRow.Layout}) and the values (the row's own), symbols first. Made on demand by
 * {@link QuestDbRow#symbols()} and {@link QuestDbRow#columns()}; the sink's own paths read the
 * arrays by position instead.
 *
 * <p>Immutable: the arrays are never written after the row is made, and nobody outside this
 * package holds them.
 *
 * @param <V> {@code String} for symbols, {@code Object} for columns
 */
final class RowFields<V> extends AbstractMap<String, V> {

    final String[] names;
    final Object[] values;
    final int from;
    final int to;

    RowFields(String[] names, Object[] values, int from, int to) {
        this.names = names;
        this.values = values;
        this.from = from;
        this.to = to;
    }

    @Override
    public int size() {
        return to - from;
    }

    @Override
    public boolean isEmpty() {
        return to == from;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : (V) values[i];
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<? super String, ? super V> action) {
        for (int i = from; i < to; i++) {
            action.accept(names[i], (V) values[i]);
        }
    }

    private int indexOf(Object key) {
        for (int i = from; i < to; i++) {
            if (names[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return to - from;
            }

            @Override
            public Iterator<Entry<String, V>> iterator() {
                return new Iterator<>() {
                    private int next = from;

                    @Override
                    public boolean hasNext() {
                        return next < to;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<String, V> next() {
                        if (next >= to) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(names[i], (V) values[i]);
                    }
                };
            }
        };
    }
}
