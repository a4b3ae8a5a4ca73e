package io.qubiq.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Inline;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One key of a configuration record, read once from the component's declaration: its YAML name,
 * value type, declared default (YAML text), range, secrecy, unit and description.
 *
 * <p>A key is secret when it is marked {@code @Secret} or its name says so ({@code password},
 * {@code token}, {@code secret}, {@code passphrase}, {@code api_key}, alone or as the last word:
 * {@code keystore_password}); its value never appears in a message, a dump or an API answer. A
 * numeric key's unit is the last word of its name ({@code linger_ms}: milliseconds).
 *
 * <p>An {@link Inline} component is not a key of its own: {@code inline} is true, its type is the
 * record whose keys stand in its place ({@link RecordShape#keys}), and {@code key} is only its name.
 */
record KeySpec(String key, RecordComponent component, ConfigType type, Optional<String> defaultYaml,
        Optional<Range> range, boolean secret, Optional<String> doc, boolean inline) {

    private static final Pattern SECRET_NAME = Pattern.compile("(.*_)?(password|passphrase|secret|token|api_key)");

    private static final Map<String, String> UNITS = Map.ofEntries(
            Map.entry("ms", "milliseconds"), Map.entry("us", "microseconds"), Map.entry("ns", "nanoseconds"),
            Map.entry("s", "seconds"), Map.entry("seconds", "seconds"), Map.entry("minutes", "minutes"),
            Map.entry("hours", "hours"), Map.entry("days", "days"), Map.entry("bytes", "bytes"),
            Map.entry("percent", "percent"), Map.entry("hz", "hertz"));

    static KeySpec of(RecordComponent component) {
        String where = component.getDeclaringRecord().getName() + "." + component.getName();
        ConfigType type = ConfigType.of(component.getGenericType(), where);
        Range range = component.getAnnotation(Range.class);
        if (range != null && !isNumeric(type)) {
            throw new IllegalArgumentException(where + ": @Range applies only to int, long and double keys");
        }
        if (range != null && range.min() > range.max()) {
            throw new IllegalArgumentException(where + ": @Range min is above max");
        }
        boolean inline = component.isAnnotationPresent(Inline.class);
        if (inline) {
            checkInline(component, type, where);
        }
        return new KeySpec(key(component), component, type,
                Optional.ofNullable(component.getAnnotation(Default.class)).map(Default::value),
                Optional.ofNullable(range), component.isAnnotationPresent(Secret.class) || namesASecret(type, key(component)),
                Optional.ofNullable(component.getAnnotation(Doc.class)).map(Doc::value), inline);
    }

    /** {@code @Inline} goes on a plain record type, and alone: its keys carry their own declarations. */
    private static void checkInline(RecordComponent component, ConfigType type, String where) {
        if (!(type instanceof ConfigType.RecordType)) {
            throw new IllegalArgumentException(where + ": @Inline applies only to a component whose type is a record"
                    + " (not Optional, a list, a map or a sealed interface)");
        }
        if (component.isAnnotationPresent(Default.class) || component.isAnnotationPresent(Range.class)
                || component.isAnnotationPresent(Secret.class)) {
            throw new IllegalArgumentException(where + ": @Inline cannot be combined with @Default, @Range or @Secret;"
                    + " declare them on the inline record's keys");
        }
    }

    /** The record whose keys this {@code @Inline} component stands for. */
    Class<?> inlined() {
        if (!inline) {
            throw new IllegalStateException(component + " is not @Inline");
        }
        return ((ConfigType.RecordType) type).type();
    }

    /** This component's value in a bound {@code record} (of the record that declares it). */
    Object read(Object record) {
        try {
            var accessor = component.getAccessor();
            accessor.setAccessible(true);
            return accessor.invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + component, e);
        }
    }

    private static String key(RecordComponent component) {
        return KeyNames.snakeCase(component.getName());
    }

    /** A string key named like a credential: {@code password}, {@code api_token}, {@code client_secret}. */
    static boolean namesASecret(ConfigType type, String key) {
        ConfigType scalar = type instanceof ConfigType.OptionalType o ? o.element() : type;
        return scalar instanceof ConfigType.ScalarType s && s.kind() == ConfigType.ScalarKind.STRING
                && SECRET_NAME.matcher(key).matches();
    }

    /**
     * The unit this key's name carries ({@code linger_ms}: "milliseconds"), if any; it applies to the
     * numbers the key holds (its value, or the items of its list).
     */
    Optional<String> unit() {
        if (!key.contains("_")) {
            return Optional.empty();
        }
        return Optional.ofNullable(UNITS.get(key.substring(key.lastIndexOf('_') + 1)));
    }

    private static boolean isNumeric(ConfigType type) {
        ConfigType scalar = type instanceof ConfigType.OptionalType o ? o.element() : type;
        return scalar instanceof ConfigType.ScalarType s && switch (s.kind()) {
            case INT, LONG, DOUBLE -> true;
            default -> false;
        };
    }

    /** Absent from the file, this key takes nothing: it must be written. */
    boolean required() {
        if (defaultYaml.isPresent() || type instanceof ConfigType.OptionalType) {
            return false;
        }
        return !(type instanceof ConfigType.RecordType record && RecordShape.of(record.type()).fullyDefaulted());
    }
}
