package io.qubiq.config;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import java.lang.reflect.RecordComponent;
import java.util.Optional;

/**
 * One key of a configuration record, read once from the component's declaration: its YAML name,
 * value type, declared default (YAML text), range, secrecy and description.
 */
record KeySpec(String key, RecordComponent component, ConfigType type, Optional<String> defaultYaml,
        Optional<Range> range, boolean secret, Optional<String> doc) {

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
        return new KeySpec(KeyNames.snakeCase(component.getName()), component, type,
                Optional.ofNullable(component.getAnnotation(Default.class)).map(Default::value),
                Optional.ofNullable(range), component.isAnnotationPresent(Secret.class),
                Optional.ofNullable(component.getAnnotation(Doc.class)).map(Doc::value));
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
