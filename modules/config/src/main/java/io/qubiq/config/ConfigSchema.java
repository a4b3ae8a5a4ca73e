package io.qubiq.config;

import io.qubiq.config.ConfigType.EnumType;
import io.qubiq.config.ConfigType.ListType;
import io.qubiq.config.ConfigType.MapType;
import io.qubiq.config.ConfigType.OptionalType;
import io.qubiq.config.ConfigType.RecordType;
import io.qubiq.config.ConfigType.ScalarType;
import io.qubiq.config.ConfigType.VariantType;
import io.qubiq.config.YamlValue.Position;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Shorthand;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A JSON Schema (draft 2020-12) of the configuration, generated from the same declarations the binder
 * reads and {@link ConfigReference} documents, so the file, the reference and the API cannot disagree:
 * <ul>
 *   <li>a record is an object with its keys as properties, in declaration order; the keys without a
 *       default are {@code required}; no other keys ({@code additionalProperties: false});</li>
 *   <li>each key carries its {@code @Doc} as {@code description}, its {@code @Default} as {@code default}
 *       (the bound value as JSON, never for a secret), its {@code @Range} as {@code minimum} and
 *       {@code maximum}, the unit its name carries as {@code x-unit} ({@code linger_ms}:
 *       {@code milliseconds}); a secret key is {@code writeOnly};</li>
 *   <li>integers are {@code integer}, decimals {@code number}, paths {@code string}, enums
 *       {@code string} with their values as {@code enum}; lists are arrays and maps of names objects
 *       with {@code additionalProperties} for the values;</li>
 *   <li>a sealed interface of {@code @Variant} records is a {@code oneOf} of its variants, in name order:
 *       selected by {@code type} ({@code const}) or, when {@code @SelectedBySection}, by the section key
 *       each variant requires; a {@code @Shorthand} record is also allowed as its one key's value.</li>
 * </ul>
 * It describes values as the API shows them: a file may also write {@code ${VARIABLE}} in any scalar,
 * which is expanded before these rules apply. Deterministic: the same classes give the same schema.
 * Stateless; safe to call from any thread.
 */
public final class ConfigSchema {

    public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    private final Deque<Class<?>> open = new ArrayDeque<>();

    private ConfigSchema() {
    }

    /**
     * The schema of {@code root}'s configuration, as nested maps and lists ready to write as JSON.
     *
     * @throws IllegalArgumentException when a declaration is not a supported configuration type
     */
    public static Map<String, Object> of(Class<? extends Record> root) {
        DeclarationCheck.verify(root);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", DIALECT);
        schema.put("title", "Qubiq configuration (" + root.getSimpleName() + ")");
        schema.putAll(new ConfigSchema().record(root, Optional.empty(), Optional.empty()));
        return schema;
    }

    /** {@code variant}: the {@code type:} value selecting this record; {@code section}: the key that selects it. */
    private Map<String, Object> record(Class<?> record, Optional<String> variant, Optional<String> section) {
        if (open.contains(record)) {
            throw new IllegalArgumentException(record.getName() + " contains itself; configuration cannot be recursive");
        }
        open.push(record);
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        variant.ifPresent(name -> {
            properties.put(ConfigType.VARIANT_KEY, schema("const", name, "description", "Selects this variant."));
            required.add(ConfigType.VARIANT_KEY);
        });
        for (KeySpec key : RecordShape.of(record).keys()) {
            properties.put(key.key(), key(key));
            if (key.required() || section.filter(key.key()::equals).isPresent()) {
                required.add(key.key());
            }
        }
        open.pop();
        Map<String, Object> schema = schema("type", "object");
        Optional.ofNullable(record.getAnnotation(Doc.class)).ifPresent(doc -> schema.put("description", text(doc.value())));
        schema.put("properties", properties);
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        schema.put("additionalProperties", false);
        return schema;
    }

    private Map<String, Object> key(KeySpec key) {
        Map<String, Object> schema = new LinkedHashMap<>(type(key.type(), key.range(), key.unit()));
        key.doc().ifPresent(doc -> schema.put("description", text(doc)));
        if (key.secret()) {
            schema.put("writeOnly", true);
        } else {
            key.defaultYaml().flatMap(yaml -> defaultValue(key)).ifPresent(value -> schema.put("default", value));
        }
        return schema;
    }

    private Map<String, Object> type(ConfigType type, Optional<Range> range, Optional<String> unit) {
        if (type instanceof OptionalType t) {
            return type(t.element(), range, unit);
        }
        if (type instanceof ListType t) {
            return schema("type", "array", "items", type(t.element(), Optional.empty(), unit));
        }
        if (type instanceof MapType t) {
            return schema("type", "object", "additionalProperties", type(t.value(), Optional.empty(), unit));
        }
        if (type instanceof EnumType t) {
            return schema("type", "string", "enum", t.values());
        }
        if (type instanceof RecordType t) {
            Map<String, Object> record = record(t.type(), Optional.empty(), Optional.empty());
            Shorthand shorthand = t.type().getAnnotation(Shorthand.class);
            if (shorthand == null) {
                return record;
            }
            KeySpec key = RecordShape.of(t.type()).keys().stream().filter(k -> k.key().equals(shorthand.value()))
                    .findFirst().orElseThrow();
            return schema("anyOf", List.of(type(key.type(), key.range(), key.unit()), record));
        }
        if (type instanceof VariantType t) {
            List<Object> variants = new ArrayList<>();
            t.variants().forEach((name, record) -> variants.add(t.bySection()
                    ? record(record, Optional.empty(), Optional.of(name))
                    : record(record, Optional.of(name), Optional.empty())));
            Map<String, Object> schema = schema("oneOf", variants);
            schema.put("x-selected-by", t.bySection() ? "section" : ConfigType.VARIANT_KEY);
            return schema;
        }
        ScalarType scalar = (ScalarType) type;
        Map<String, Object> schema = schema("type", switch (scalar.kind()) {
            case STRING, PATH -> "string";
            case INT, LONG -> "integer";
            case DOUBLE -> "number";
            case BOOLEAN -> "boolean";
        });
        boolean numeric = scalar.kind() == ConfigType.ScalarKind.INT || scalar.kind() == ConfigType.ScalarKind.LONG
                || scalar.kind() == ConfigType.ScalarKind.DOUBLE;
        if (numeric) {
            range.filter(r -> r.min() != Long.MIN_VALUE).ifPresent(r -> schema.put("minimum", r.min()));
            range.filter(r -> r.max() != Long.MAX_VALUE).ifPresent(r -> schema.put("maximum", r.max()));
            unit.ifPresent(u -> schema.put("x-unit", u));
        }
        return schema;
    }

    /** The declared default bound as the binder binds it, then written as the API shows values. */
    private static Optional<Object> defaultValue(KeySpec key) {
        String yaml = key.defaultYaml().orElseThrow();
        if (yaml.contains("${")) {
            return Optional.empty();
        }
        ProblemCollector problems = new ProblemCollector("@Default");
        YamlValue value = new YamlReader().read(yaml, problems).orElse(new YamlValue.Scalar("", true, Position.START));
        ValueBinder.Slot slot = new ValueBinder.Slot(key.key(), Position.START, key.range(), key.secret());
        return new ValueBinder(new EnvExpander(name -> Optional.empty()), problems).bind(value, key.type(), slot)
                .map(bound -> ConfigTree.value(bound, key.type(), false));
    }

    private static String text(String doc) {
        return doc.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    private static Map<String, Object> schema(Object... keysAndValues) {
        Map<String, Object> schema = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            schema.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return schema;
    }
}
