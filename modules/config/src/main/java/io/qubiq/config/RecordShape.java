package io.qubiq.config;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys of one configuration record, in declaration order, and its canonical constructor.
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
    private final List<KeySpec> keys;
    private final Constructor<?> constructor;

    private RecordShape(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        this.type = type;
        RecordComponent[] components = type.getRecordComponents();
        this.keys = Arrays.stream(components).map(KeySpec::of).toList();
        Set<String> names = new HashSet<>();
        for (KeySpec key : keys) {
            if (!names.add(key.key())) {
                throw new IllegalArgumentException(type.getName() + ": two components map to the key `" + key.key() + "`");
            }
        }
        try {
            this.constructor = type.getDeclaredConstructor(
                    Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
            this.constructor.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("a record always has a canonical constructor: " + type.getName(), e);
        }
    }

    static RecordShape of(Class<?> type) {
        return CACHE.get(type);
    }

    Class<?> type() {
        return type;
    }

    List<KeySpec> keys() {
        return keys;
    }

    List<String> keyNames() {
        return keys.stream().map(KeySpec::key).toList();
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
