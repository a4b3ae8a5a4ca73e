package io.qubiq.config;

import io.qubiq.core.config.Inline;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The keys of one configuration record and its canonical constructor. {@link #components} are the
 * record's own components, in declaration order, as the constructor takes them; {@link #keys} are the
 * keys a file writes at the record's level: the same, except that each {@code @Inline} component is
 * replaced, in its place, by the keys of its record (see {@link io.qubiq.core.config.Inline}). Keys are
 * unique: two components with the same key, an inline key the enclosing record also declares and an
 * inline record that includes itself are declaration mistakes ({@link IllegalArgumentException}).
 * Computed once per class and cached; immutable and safe to share between threads.
 */
final class RecordShape {

    private static final ClassValue<RecordShape> CACHE = new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
            return new RecordShape(type);
        }
    };

    private final Class<?> type;
    private final List<KeySpec> components;
    private final List<KeySpec> keys;
    private final Constructor<?> constructor;

    private RecordShape(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        this.type = type;
        RecordComponent[] declared = type.getRecordComponents();
        this.components = Arrays.stream(declared).map(KeySpec::of).toList();
        List<KeySpec> flat = new ArrayList<>();
        flatten(components, new ArrayDeque<>(List.of(type)), flat);
        this.keys = List.copyOf(flat);
        Map<String, KeySpec> byKey = new HashMap<>();
        for (KeySpec key : keys) {
            KeySpec first = byKey.putIfAbsent(key.key(), key);
            if (first == null) {
                continue;
            }
            if (first.component().getDeclaringRecord() == type && key.component().getDeclaringRecord() == type) {
                throw new IllegalArgumentException(type.getName() + ": two components map to the key `" + key.key() + "`");
            }
            throw new IllegalArgumentException(type.getName() + ": the key `" + key.key() + "` is declared by both "
                    + where(first) + " and " + where(key) + "; an @Inline record's keys share the level of the"
                    + " record that includes it");
        }
        try {
            this.constructor = type.getDeclaredConstructor(
                    Arrays.stream(declared).map(RecordComponent::getType).toArray(Class<?>[]::new));
            this.constructor.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("a record always has a canonical constructor: " + type.getName(), e);
        }
    }

    /**
     * Appends the keys of {@code specs} to {@code out}, each inline one's record's keys in its place;
     * {@code inlining} holds the records being expanded, to refuse one that includes itself.
     */
    private static void flatten(List<KeySpec> specs, Deque<Class<?>> inlining, List<KeySpec> out) {
        for (KeySpec spec : specs) {
            if (!spec.inline()) {
                out.add(spec);
                continue;
            }
            Class<?> inlined = spec.inlined();
            if (inlining.contains(inlined)) {
                throw new IllegalArgumentException(where(spec) + ": @Inline " + inlined.getName() + " includes itself");
            }
            inlining.push(inlined);
            flatten(Arrays.stream(inlined.getRecordComponents()).map(KeySpec::of).toList(), inlining, out);
            inlining.pop();
        }
    }

    /**
     * The key names at {@code record}'s level read from its declaration alone, without building shapes:
     * for checks that run while a shape is being built (a variant's reserved keys). Cycles of
     * {@code @Inline} are left to the shape to report.
     */
    static List<String> keyNamesOf(Class<?> record) {
        List<String> names = new ArrayList<>();
        keyNamesOf(record, new HashSet<>(), names);
        return names;
    }

    private static void keyNamesOf(Class<?> record, Set<Class<?>> visiting, List<String> out) {
        if (!visiting.add(record)) {
            return;
        }
        for (RecordComponent component : record.getRecordComponents()) {
            if (component.isAnnotationPresent(Inline.class) && component.getType().isRecord()) {
                keyNamesOf(component.getType(), visiting, out);
            } else {
                out.add(KeyNames.snakeCase(component.getName()));
            }
        }
        visiting.remove(record);
    }

    private static String where(KeySpec spec) {
        return spec.component().getDeclaringRecord().getName() + "." + spec.component().getName();
    }

    static RecordShape of(Class<?> type) {
        return CACHE.get(type);
    }

    Class<?> type() {
        return type;
    }

    /** The record's own components, in the constructor's order; an {@code @Inline} one is not a key. */
    List<KeySpec> components() {
        return components;
    }

    /** The keys written at this record's level, in declaration order, inline records' keys in their place. */
    List<KeySpec> keys() {
        return keys;
    }

    List<String> keyNames() {
        return keys.stream().map(KeySpec::key).toList();
    }

    /**
     * Hands each key of {@code record} (a bound record of this shape) with its value to {@code action},
     * in {@link #keys} order: an inline record's keys with the values read from it.
     */
    void forEachKey(Object record, BiConsumer<KeySpec, Object> action) {
        for (KeySpec component : components) {
            Object value = component.read(record);
            if (component.inline()) {
                of(component.inlined()).forEachKey(value, action);
            } else {
                action.accept(component, value);
            }
        }
    }

    /** True when every key can be left out: the record can be built from an empty mapping. */
    boolean fullyDefaulted() {
        return fullyDefaulted(new HashSet<>());
    }

    private boolean fullyDefaulted(Set<Class<?>> visiting) {
        if (!visiting.add(type)) {
            return false;
        }
        for (KeySpec key : keys) {
            if (key.defaultYaml().isPresent() || key.type() instanceof ConfigType.OptionalType) {
                continue;
            }
            if (!(key.type() instanceof ConfigType.RecordType nested && of(nested.type()).fullyDefaulted(visiting))) {
                return false;
            }
        }
        visiting.remove(type);
        return true;
    }

    /**
     * Calls the canonical constructor. A constructor that rejects its arguments (a compact
     * constructor's own check) is a configuration problem, returned as {@link IllegalArgumentException}.
     */
    Object construct(Object[] values) {
        try {
            return constructor.newInstance(values);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalArgumentException || cause instanceof IllegalStateException
                    || cause instanceof NullPointerException) {
                throw new IllegalArgumentException(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
            }
            throw new IllegalStateException("constructor of " + type.getName() + " failed", cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type.getName(), e);
        }
    }
}
