package io.qubiq.config;

import io.qubiq.config.YamlValue.Position;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks the declarations reachable from a root record before any file is read, so that a mistake
 * in them fails the same way whatever the file says: every component type is supported, and every
 * {@code @Default} is YAML that binds to its own key's type and range ({@code @Default("70000")} on
 * a port fails here), and the keys at each record's level, its own and those of its {@code @Inline}
 * records, are unique ({@link RecordShape}). Defaults that read the environment are only checked for
 * YAML syntax, since their value depends on it. Mistakes throw {@link IllegalArgumentException}; a verified root is
 * remembered. Thread-safe.
 */
final class DeclarationCheck {

    private static final ClassValue<Boolean> VERIFIED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> root) {
            new DeclarationCheck().record(root);
            return Boolean.TRUE;
        }
    };

    private final Set<Class<?>> seen = new HashSet<>();

    private DeclarationCheck() {
    }

    static void verify(Class<?> root) {
        VERIFIED.get(root);
    }

    private void record(Class<?> type) {
        if (!seen.add(type)) {
            return;
        }
        for (KeySpec key : RecordShape.of(type).keys()) {
            key.defaultYaml().ifPresent(yaml -> checkDefault(key, yaml));
            nested(key.type());
        }
    }

    private void nested(ConfigType type) {
        if (type instanceof ConfigType.OptionalType t) {
            nested(t.element());
        } else if (type instanceof ConfigType.ListType t) {
            nested(t.element());
        } else if (type instanceof ConfigType.MapType t) {
            nested(t.value());
        } else if (type instanceof ConfigType.RecordType t) {
            record(t.type());
        } else if (type instanceof ConfigType.VariantType t) {
            t.variants().values().forEach(this::record);
        }
    }

    private static void checkDefault(KeySpec key, String yaml) {
        String where = key.component().getDeclaringRecord().getName() + "." + key.component().getName();
        ProblemCollector problems = new ProblemCollector("@Default");
        Optional<YamlValue> parsed = new YamlReader().read(yaml, problems);
        if (problems.count() == 0 && !yaml.contains("${")) {
            YamlValue value = parsed.orElse(new YamlValue.Scalar("", true, Position.START));
            ValueBinder.Slot slot = new ValueBinder.Slot(key.key(), Position.START, key.range(), key.secret());
            new ValueBinder(new EnvExpander(name -> Optional.empty()), problems).bind(value, key.type(), slot);
        }
        List<String> messages = problems.sorted().stream().map(ConfigProblem::message).toList();
        if (!messages.isEmpty()) {
            throw new IllegalArgumentException(where + ": @Default(\"" + (key.secret() ? "***" : yaml)
                    + "\") is not a valid value for this key: " + String.join("; ", messages));
        }
    }
}
