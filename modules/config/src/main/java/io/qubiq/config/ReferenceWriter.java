package io.qubiq.config;

import io.qubiq.config.ConfigType.EnumType;
import io.qubiq.config.ConfigType.ListType;
import io.qubiq.config.ConfigType.MapType;
import io.qubiq.config.ConfigType.OptionalType;
import io.qubiq.config.ConfigType.RecordType;
import io.qubiq.config.ConfigType.ScalarType;
import io.qubiq.config.ConfigType.VariantType;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Writes the Markdown tables of {@link ConfigReference}: one section per record reached from the
 * root, headed by its key path, in declaration order, depth first; the variants of a sealed
 * interface follow in name order; a section that variants share is written once. The output depends only on the declarations. One instance per
 * document; not thread-safe.
 */
final class ReferenceWriter {

    private final StringBuilder out = new StringBuilder();
    private final List<String> undocumented = new ArrayList<>();
    private final Deque<Class<?>> open = new ArrayDeque<>();
    /** Sections already written: variants that share a key (a section's siblings) describe it once. */
    private final Set<String> written = new HashSet<>();

    /** The whole reference; fails listing every component that has no {@code @Doc}. */
    String write(Class<?> root) {
        DeclarationCheck.verify(root);
        section("", "(top level)", root, Optional.empty(), Optional.empty());
        if (!undocumented.isEmpty()) {
            throw new IllegalArgumentException("configuration keys without @Doc: " + String.join(", ", undocumented));
        }
        return out.toString();
    }

    /**
     * One record's table; {@code variant} is its {@code type:} value, {@code selector} the key of its
     * own section when a {@code @SelectedBySection} interface chose it.
     */
    private void section(String path, String heading, Class<?> record, Optional<String> variant,
                         Optional<String> selector) {
        if (open.contains(record)) {
            throw new IllegalArgumentException(record.getName() + " contains itself; configuration cannot be recursive");
        }
        if (!written.add(heading + " " + record.getName())) {
            return;
        }
        open.push(record);
        RecordShape shape = RecordShape.of(record);
        if (!out.isEmpty()) {
            out.append('\n');
        }
        out.append("### ").append(heading).append("\n\n");
        Optional.ofNullable(record.getAnnotation(Doc.class)).ifPresent(doc -> out.append(cell(doc.value())).append("\n\n"));
        out.append("| Key | Type | Default | Allowed | Description |\n");
        out.append("|---|---|---|---|---|\n");
        variant.ifPresent(name -> row("`" + ConfigType.VARIANT_KEY + "`", "string", "required", "`" + name + "`",
                "Selects this variant."));
        List<Runnable> nested = new ArrayList<>();
        for (KeySpec key : shape.keys()) {
            String keyPath = path.isEmpty() ? key.key() : path + "." + key.key();
            if (key.doc().isEmpty()) {
                undocumented.add(key.component().getDeclaringRecord().getSimpleName() + "." + key.component().getName());
            }
            boolean selects = selector.filter(key.key()::equals).isPresent();
            row("`" + key.key() + "`", typeName(key.type(), keyPath, key.unit()), selects ? "required" : defaultValue(key),
                    selects ? "selects this variant" : allowed(key.type(), key.range()), cell(key.doc().orElse("")));
            nested.add(() -> children(keyPath, key.type()));
        }
        nested.forEach(Runnable::run);
        open.pop();
    }

    /** The sections of the records inside one key's type, if any. */
    private void children(String path, ConfigType type) {
        if (type instanceof OptionalType t) {
            children(path, t.element());
        } else if (type instanceof ListType t) {
            children(path + "[]", t.element());
        } else if (type instanceof MapType t) {
            children(path + ".<name>", t.value());
        } else if (type instanceof RecordType t) {
            section(path, "`" + path + "`", t.type(), Optional.empty(), Optional.empty());
        } else if (type instanceof VariantType t) {
            out.append("\n### `").append(path).append("`\n\n");
            Optional.ofNullable(t.type().getAnnotation(Doc.class)).ifPresent(doc -> out.append(cell(doc.value())).append(' '));
            if (t.bySection()) {
                out.append("Exactly one section, which selects the variant: ").append(t.choices()).append(".\n");
                t.variants().forEach((name, record) ->
                        section(path, "`" + path + "` with `" + name + ":`", record, Optional.empty(),
                                Optional.of(name)));
            } else {
                out.append("Selected by `").append(ConfigType.VARIANT_KEY).append("`, one of: ").append(t.choices())
                        .append(".\n");
                t.variants().forEach((name, record) ->
                        section(path, "`" + path + "` with `type: " + name + "`", record, Optional.of(name),
                                Optional.empty()));
            }
        }
    }

    private void row(String key, String type, String defaultValue, String allowed, String description) {
        out.append("| ").append(key).append(" | ").append(type).append(" | ").append(defaultValue)
                .append(" | ").append(allowed).append(" | ").append(description).append(" |\n");
    }

    private static String typeName(ConfigType type, String keyPath, Optional<String> unit) {
        if (type instanceof OptionalType t) {
            return typeName(t.element(), keyPath, unit) + ", optional";
        }
        if (type instanceof ListType t) {
            return "list of " + typeName(t.element(), keyPath + "[]", unit);
        }
        if (type instanceof MapType t) {
            return "map of name to " + typeName(t.value(), keyPath + ".<name>", unit);
        }
        if (type instanceof RecordType) {
            return "section `" + keyPath + "`";
        }
        if (type instanceof VariantType v) {
            return "section `" + keyPath + "` by " + (v.bySection() ? "its one section" : "`type`");
        }
        if (type instanceof EnumType) {
            return "enum";
        }
        String name = switch (((ScalarType) type).kind()) {
            case STRING -> "string";
            case INT, LONG -> "integer";
            case DOUBLE -> "number";
            case BOOLEAN -> "boolean";
            case PATH -> "path";
        };
        boolean numeric = name.equals("integer") || name.equals("number");
        return numeric && unit.isPresent() ? name + " (" + unit.get() + ")" : name;
    }

    private static String defaultValue(KeySpec key) {
        if (key.defaultYaml().isPresent()) {
            String text = key.defaultYaml().get();
            return key.secret() ? "`***`" : text.isEmpty() ? "empty" : "`" + cell(text).replace("`", "'") + "`";
        }
        if (key.type() instanceof OptionalType) {
            return "none";
        }
        return key.required() ? "required" : "see section";
    }

    private static String allowed(ConfigType type, Optional<Range> range) {
        ConfigType scalar = type instanceof OptionalType t ? t.element() : type;
        if (scalar instanceof EnumType e) {
            return e.values().stream().map(v -> "`" + v + "`").collect(Collectors.joining(", "));
        }
        if (scalar instanceof ScalarType s && s.kind() == ConfigType.ScalarKind.BOOLEAN) {
            return "`true`, `false`";
        }
        if (scalar instanceof VariantType v) {
            return (v.bySection() ? "one section of " : "`type`: ") + v.choices();
        }
        if (range.isEmpty() || range.get().min() == Long.MIN_VALUE && range.get().max() == Long.MAX_VALUE) {
            return "";
        }
        Range r = range.get();
        if (r.min() != Long.MIN_VALUE && r.max() != Long.MAX_VALUE) {
            return r.min() + " to " + r.max();
        }
        return r.min() != Long.MIN_VALUE ? "at least " + r.min() : "at most " + r.max();
    }

    /** Text safe inside one table cell: one line, pipes escaped. */
    private static String cell(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ").replace("|", "\\|");
    }
}
