package io.qubiq.config;

import io.qubiq.core.config.SelectedBySection;
import io.qubiq.core.config.Variant;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The shapes a configuration value can take, derived once from a component's Java type. Binding and
 * the reference generator both switch over this, so a type the binder accepts is a type the docs
 * describe. Anything else is a declaration mistake and fails with {@link IllegalArgumentException}
 * naming the component, before any file is read.
 */
sealed interface ConfigType {

    /** Discriminator key selecting the variant of a sealed interface. */
    String VARIANT_KEY = "type";

    enum ScalarKind { STRING, INT, LONG, DOUBLE, BOOLEAN, PATH }

    record ScalarType(ScalarKind kind) implements ConfigType {
    }

    record EnumType(Class<?> type) implements ConfigType {
        List<String> values() {
            return Arrays.stream(type.getEnumConstants()).map(c -> KeyNames.enumValue((Enum<?>) c)).toList();
        }
    }

    record OptionalType(ConfigType element) implements ConfigType {
    }

    record ListType(ConfigType element) implements ConfigType {
    }

    /** String keys chosen by the user (connection names, say); kept as written, in file order. */
    record MapType(ConfigType value) implements ConfigType {
    }

    record RecordType(Class<?> type) implements ConfigType {
    }

    /**
     * A sealed interface; {@code variants} maps each variant name to its record, sorted by name. The
     * name is the value of {@code type:}, or, when {@code bySection}, the key of the section that is present.
     */
    record VariantType(Class<?> type, SortedMap<String, Class<?>> variants, boolean bySection) implements ConfigType {

        /** The variant names as a message shows them: "`a`, `b`". */
        String choices() {
            return variants.keySet().stream().map(v -> "`" + v + "`").collect(Collectors.joining(", "));
        }
    }

    /** Classifies {@code javaType}; {@code where} names the component for declaration errors. */
    static ConfigType of(Type javaType, String where) {
        ConfigType type = classify(javaType, where);
        if (type instanceof OptionalType optional && optional.element() instanceof OptionalType) {
            throw new IllegalArgumentException(where + ": Optional<Optional<…>> is not a configuration type");
        }
        return type;
    }

    private static ConfigType classify(Type javaType, String where) {
        if (javaType instanceof ParameterizedType parameterized) {
            Type raw = parameterized.getRawType();
            Type[] args = parameterized.getActualTypeArguments();
            if (raw == Optional.class) {
                return new OptionalType(element(args[0], where));
            }
            if (raw == List.class) {
                return new ListType(element(args[0], where));
            }
            if (raw == Map.class && args[0] == String.class) {
                return new MapType(element(args[1], where));
            }
            throw unsupported(javaType, where);
        }
        if (!(javaType instanceof Class<?> type)) {
            throw unsupported(javaType, where);
        }
        if (type == String.class) {
            return new ScalarType(ScalarKind.STRING);
        }
        if (type == int.class || type == Integer.class) {
            return new ScalarType(ScalarKind.INT);
        }
        if (type == long.class || type == Long.class) {
            return new ScalarType(ScalarKind.LONG);
        }
        if (type == double.class || type == Double.class) {
            return new ScalarType(ScalarKind.DOUBLE);
        }
        if (type == boolean.class || type == Boolean.class) {
            return new ScalarType(ScalarKind.BOOLEAN);
        }
        if (type == Path.class) {
            return new ScalarType(ScalarKind.PATH);
        }
        if (type.isEnum()) {
            return new EnumType(type);
        }
        if (type.isRecord()) {
            return new RecordType(type);
        }
        if (type.isInterface() && type.isSealed()) {
            return variants(type, where);
        }
        throw unsupported(javaType, where);
    }

    private static ConfigType element(Type javaType, String where) {
        ConfigType element = classify(javaType, where);
        if (element instanceof OptionalType) {
            throw new IllegalArgumentException(where + ": Optional is only allowed as a record component's own type");
        }
        return element;
    }

    private static VariantType variants(Class<?> sealed, String where) {
        SortedMap<String, Class<?>> variants = new TreeMap<>();
        boolean bySection = sealed.isAnnotationPresent(SelectedBySection.class);
        for (Class<?> permitted : sealed.getPermittedSubclasses()) {
            Variant variant = permitted.getAnnotation(Variant.class);
            if (!permitted.isRecord() || variant == null) {
                throw new IllegalArgumentException(where + ": " + permitted.getName()
                        + " implements sealed " + sealed.getSimpleName() + " but is not a record annotated @Variant");
            }
            Class<?> clash = variants.put(variant.value(), permitted);
            if (clash != null) {
                throw new IllegalArgumentException(where + ": @Variant(\"" + variant.value() + "\") is declared by both "
                        + clash.getName() + " and " + permitted.getName());
            }
            List<String> keys = RecordShape.keyNamesOf(permitted);
            boolean hasSection = keys.contains(variant.value());
            if (bySection && !hasSection) {
                throw new IllegalArgumentException(permitted.getName() + " is @Variant(\"" + variant.value()
                        + "\") of @SelectedBySection " + sealed.getSimpleName() + " but has no component named `"
                        + variant.value() + "`, the section that selects it");
            }
            boolean usesDiscriminator = keys.contains(VARIANT_KEY);
            if (!bySection && usesDiscriminator) {
                throw new IllegalArgumentException(permitted.getName() + " has a component named `" + VARIANT_KEY
                        + "`, which is the key that selects the variant");
            }
        }
        if (bySection) {
            for (Class<?> record : variants.values()) {
                for (String key : RecordShape.keyNamesOf(record)) {
                    if (variants.containsKey(key) && variants.get(key) != record) {
                        throw new IllegalArgumentException(record.getName() + " has a component named `" + key
                                + "`, which is the section that selects " + variants.get(key).getName());
                    }
                }
            }
        }
        return new VariantType(sealed, variants, bySection);
    }

    private static IllegalArgumentException unsupported(Type javaType, String where) {
        return new IllegalArgumentException(where + ": " + javaType.getTypeName() + " is not a configuration type"
                + " (use String, int, long, double, boolean, an enum, Path, Optional, List, Map<String, …>,"
                + " a record or a sealed interface of @Variant records)");
    }

    /** What a value of this type looks like, for messages: "an integer", "one of `a`, `b`". */
    static String expectation(ConfigType type) {
        if (type instanceof ScalarType scalar) {
            return switch (scalar.kind()) {
                case STRING -> "a string";
                case INT, LONG -> "an integer";
                case DOUBLE -> "a number";
                case BOOLEAN -> "true or false";
                case PATH -> "a file path";
            };
        }
        if (type instanceof EnumType e) {
            return "one of " + e.values().stream().map(v -> "`" + v + "`").collect(Collectors.joining(", "));
        }
        if (type instanceof OptionalType optional) {
            return expectation(optional.element());
        }
        if (type instanceof ListType) {
            return "a list";
        }
        return "a mapping";
    }
}
