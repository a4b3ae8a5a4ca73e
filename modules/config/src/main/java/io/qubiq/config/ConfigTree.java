package io.qubiq.config;

import io.qubiq.config.ConfigType.EnumType;
import io.qubiq.config.ConfigType.ListType;
import io.qubiq.config.ConfigType.MapType;
import io.qubiq.config.ConfigType.OptionalType;
import io.qubiq.config.ConfigType.RecordType;
import io.qubiq.config.ConfigType.ScalarType;
import io.qubiq.config.ConfigType.VariantType;
import io.qubiq.core.config.SelectedBySection;
import io.qubiq.core.config.Variant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A bound configuration as plain JSON values (maps, lists, strings, numbers, booleans), keyed as the
 * file is: every key after defaults and expansion, in declaration order, {@code type} first in a
 * variant selected by it, enum values as written in the file, paths as strings. Empty optional keys
 * are left out. The value of every secret key (see {@link KeySpec}) is {@link #MASK}, also inside
 * lists and maps under it, so a tree can be written to an API answer as it is.
 *
 * <p>{@link #leaves} flattens the same walk to key paths as {@link ConfigProblem} writes them
 * ({@code outbound.db.sql.password}, {@code tags[2].path}); that is what {@link ConfigDiff} compares.
 * Stateless; safe to call from any thread.
 */
public final class ConfigTree {

    /** What a secret's value is shown as. */
    public static final String MASK = "***";

    /** One value at the end of a key path; {@code value} is the real one, to be shown only when not secret. */
    record Leaf(Object value, boolean secret) {
        Object shown() {
            return secret ? MASK : value;
        }
    }

    private ConfigTree() {
    }

    /** The masked tree of a bound root record. */
    public static Map<String, Object> masked(Record root) {
        return record(root, false);
    }

    /** Key path to value, in walk order; empty lists and maps are leaves of their own. */
    static Map<String, Leaf> leaves(Record root) {
        Map<String, Leaf> out = new LinkedHashMap<>();
        flattenRecord(root, "", false, out);
        return out;
    }

    private static Map<String, Object> record(Object record, boolean secret) {
        Map<String, Object> out = new LinkedHashMap<>();
        variantName(record).ifPresent(name -> out.put(ConfigType.VARIANT_KEY, name));
        RecordShape.of(record.getClass()).forEachKey(record, (key, bound) -> present(bound, key.type())
                .ifPresent(v -> out.put(key.key(), value(v, element(key.type()), secret || key.secret()))));
        return out;
    }

    /**
     * The value bound to {@code key} (as the file writes it, in snake_case) in a bound configuration
     * record, as the record holds it (a Java value, not masked); an empty optional key and a key the
     * record does not have give empty. Keys of an {@code @Inline} record are found where the file writes
     * them, at the enclosing record's level. For callers that put a running secret back in place of a
     * masked one.
     *
     * @throws IllegalArgumentException when {@code record} is not a configuration record
     */
    public static Optional<Object> valueOf(Record record, String key) {
        Map<String, Object> values = new HashMap<>();
        RecordShape.of(record.getClass()).forEachKey(record, (spec, value) -> values.put(spec.key(), value));
        Object value = values.get(key);
        return value instanceof Optional<?> optional ? optional.map(Object.class::cast) : Optional.ofNullable(value);
    }

    /** One bound value of {@code type} as JSON, masked throughout when {@code secret}. */
    static Object value(Object value, ConfigType type, boolean secret) {
        if (type instanceof OptionalType optional) {
            return ((Optional<?>) value).map(v -> value(v, optional.element(), secret)).orElse(null);
        }
        if (type instanceof RecordType || type instanceof VariantType) {
            return record(value, secret);
        }
        if (type instanceof ListType list) {
            List<Object> out = new ArrayList<>();
            ((List<?>) value).forEach(item -> out.add(value(item, list.element(), secret)));
            return out;
        }
        if (type instanceof MapType map) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<?, ?>) value).forEach((name, v) -> out.put((String) name, value(v, map.value(), secret)));
            return out;
        }
        return secret ? MASK : scalar(value, type);
    }

    private static void flattenRecord(Object record, String path, boolean secret, Map<String, Leaf> out) {
        variantName(record).ifPresent(name -> out.put(join(path, ConfigType.VARIANT_KEY), new Leaf(name, false)));
        RecordShape.of(record.getClass()).forEachKey(record, (key, bound) -> present(bound, key.type())
                .ifPresent(v -> flatten(v, element(key.type()), join(path, key.key()), secret || key.secret(), out)));
    }

    private static void flatten(Object value, ConfigType type, String path, boolean secret, Map<String, Leaf> out) {
        if (type instanceof RecordType || type instanceof VariantType) {
            flattenRecord(value, path, secret, out);
        } else if (type instanceof ListType list && !((List<?>) value).isEmpty()) {
            List<?> items = (List<?>) value;
            for (int i = 0; i < items.size(); i++) {
                flatten(items.get(i), list.element(), path + "[" + i + "]", secret, out);
            }
        } else if (type instanceof MapType map && !((Map<?, ?>) value).isEmpty()) {
            ((Map<?, ?>) value).forEach((name, v) -> flatten(v, map.value(), join(path, (String) name), secret, out));
        } else if (type instanceof ListType) {
            out.put(path, new Leaf(List.of(), secret));
        } else if (type instanceof MapType) {
            out.put(path, new Leaf(Collections.emptyMap(), secret));
        } else {
            out.put(path, new Leaf(scalar(value, type), secret));
        }
    }

    private static Object scalar(Object value, ConfigType type) {
        if (type instanceof EnumType) {
            return KeyNames.enumValue((Enum<?>) value);
        }
        if (type instanceof ScalarType s && s.kind() == ConfigType.ScalarKind.PATH) {
            return ((Path) value).toString();
        }
        return value;
    }

    /** The variant name a record carries as {@code type:}; none for a section-selected or plain record. */
    private static Optional<String> variantName(Object record) {
        Variant variant = record.getClass().getAnnotation(Variant.class);
        boolean bySection = Arrays.stream(record.getClass().getInterfaces())
                .anyMatch(i -> i.isAnnotationPresent(SelectedBySection.class));
        return variant == null || bySection ? Optional.empty() : Optional.of(variant.value());
    }

    private static Optional<Object> present(Object value, ConfigType type) {
        if (type instanceof OptionalType) {
            return ((Optional<?>) value).map(v -> v);
        }
        return Optional.of(value);
    }

    private static ConfigType element(ConfigType type) {
        return type instanceof OptionalType optional ? optional.element() : type;
    }

    private static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
