package io.qubiq.config;

import io.qubiq.config.ConfigType.EnumType;
import io.qubiq.config.ConfigType.ListType;
import io.qubiq.config.ConfigType.MapType;
import io.qubiq.config.ConfigType.OptionalType;
import io.qubiq.config.ConfigType.RecordType;
import io.qubiq.config.ConfigType.ScalarType;
import io.qubiq.config.ConfigType.VariantType;
import io.qubiq.config.YamlValue.Entry;
import io.qubiq.config.YamlValue.Mapping;
import io.qubiq.config.YamlValue.Position;
import io.qubiq.config.YamlValue.Scalar;
import io.qubiq.config.YamlValue.Sequence;
import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Shorthand;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Walks a {@link YamlValue} tree alongside the declared types and builds the typed values. Every
 * problem goes to the collector and binding carries on with the siblings, so one run reports them
 * all; a value that had a problem comes back empty and its enclosing record is not constructed.
 * Owned by a single load; not thread-safe.
 */
final class ValueBinder {

    /**
     * Where a value is bound: its key path, the position to report it as missing at (the key that
     * owns it, or the list item), the range declared on its component, and whether it is secret.
     */
    record Slot(String path, Position owner, Optional<Range> range, boolean secret) {
        Slot key(String key, Position at, KeySpec spec) {
            return new Slot(path.isEmpty() ? key : path + "." + key, at, spec.range(), secret || spec.secret());
        }

        Slot entry(String key, Position at) {
            return new Slot(path.isEmpty() ? key : path + "." + key, at, Optional.empty(), secret);
        }

        Slot item(int index, Position at) {
            return new Slot(path + "[" + index + "]", at, Optional.empty(), secret);
        }
    }

    private final EnvExpander env;
    private final ProblemCollector problems;
    private final YamlReader reader = new YamlReader();
    /** Key path to the variables its value was expanded from, in binding order. */
    private final Map<String, List<String>> fromEnvironment = new LinkedHashMap<>();
    /** Key path to the secrets its value was expanded from. */
    private final Map<String, List<String>> fromSecrets = new LinkedHashMap<>();

    ValueBinder(EnvExpander env, ProblemCollector problems) {
        this.env = env;
        this.problems = problems;
    }

    /** The root record, from the document's root; an absent document means "all defaults". */
    Optional<Object> bindRoot(Optional<YamlValue> document, Class<?> root) {
        YamlValue node = document.orElse(new Mapping(List.of(), Position.START));
        Slot slot = new Slot("", node.position(), Optional.empty(), false);
        if (node instanceof Scalar scalar && scalar.isNull()) {
            node = new Mapping(List.of(), scalar.position());
        }
        if (!(node instanceof Mapping mapping)) {
            problems.add(node.position(), "", "expected a mapping of keys at the top of the file, got " + describe(node, slot));
            return Optional.empty();
        }
        return bindRecord(mapping, root, slot, Set.of());
    }

    /** Every key whose value came from {@code ${VARIABLE}} references, with the variables' names. */
    Map<String, List<String>> fromEnvironment() {
        return Collections.unmodifiableMap(fromEnvironment);
    }

    /** Every key whose value came from {@code ${secret:NAME}} references, with the secrets' names. */
    Map<String, List<String>> fromSecrets() {
        return Collections.unmodifiableMap(fromSecrets);
    }

    Optional<Object> bind(YamlValue node, ConfigType type, Slot slot) {
        if (node instanceof Scalar scalar && !scalar.isNull() && type instanceof RecordType record
                && record.type().isAnnotationPresent(Shorthand.class)) {
            String key = record.type().getAnnotation(Shorthand.class).value();
            return bindRecord(new Mapping(List.of(new Entry(key, scalar.position(), scalar)), scalar.position()),
                    record.type(), slot, Set.of());
        }
        if (type instanceof OptionalType optional) {
            if (node instanceof Scalar scalar) {
                return expand(scalar, slot).flatMap(text -> isNull(scalar, text)
                        ? Optional.of(Optional.empty())
                        : bindText(scalar, text, optional.element(), slot).map(Optional::of));
            }
            return bind(node, optional.element(), slot).map(Optional::of);
        }
        if (node instanceof Scalar scalar) {
            return expand(scalar, slot).flatMap(text -> bindText(scalar, text, type, slot));
        }
        if (type instanceof RecordType record && node instanceof Mapping mapping) {
            return bindRecord(mapping, record.type(), slot, Set.of());
        }
        if (type instanceof VariantType variant && node instanceof Mapping mapping) {
            return bindVariant(mapping, variant, slot);
        }
        if (type instanceof MapType map && node instanceof Mapping mapping) {
            return bindMap(mapping, map, slot);
        }
        if (type instanceof ListType list && node instanceof Sequence sequence) {
            return bindList(sequence, list, slot);
        }
        return mismatch(node, type, slot);
    }

    private Optional<Object> bindText(Scalar scalar, ScalarParser.Text text, ConfigType type, Slot slot) {
        if (type instanceof ScalarType || type instanceof EnumType) {
            if (isNull(scalar, text)) {
                problems.add(scalar.position(), slot.path(), "expected " + expectation(type, slot)
                        + ", got nothing" + (type instanceof ScalarType s && s.kind() == ConfigType.ScalarKind.STRING
                                ? " (write \"\" for an empty string)" : ""));
                return Optional.empty();
            }
            ScalarParser.Result result = ScalarParser.parse(text, type, slot.range());
            if (result.value().isEmpty()) {
                problems.add(scalar.position(), slot.path(), result.problem());
            }
            return result.value();
        }
        if (!isNull(scalar, text)) {
            return mismatch(scalar, type, slot);
        }
        if (type instanceof RecordType record) {
            return bindRecord(new Mapping(List.of(), scalar.position()), record.type(), slot, Set.of());
        }
        if (type instanceof ListType) {
            return Optional.of(List.of());
        }
        if (type instanceof MapType) {
            return Optional.of(Map.of());
        }
        return mismatch(scalar, type, slot);
    }

    /** Expands environment references; reports and returns empty when one cannot be resolved. */
    private Optional<ScalarParser.Text> expand(Scalar scalar, Slot slot) {
        EnvExpander.Expansion expansion = env.expand(scalar.text());
        expansion.errors().forEach(error -> problems.add(scalar.position(), slot.path(), error));
        if (!expansion.variables().isEmpty()) {
            fromEnvironment.put(slot.path(), expansion.variables());
        }
        if (!expansion.secrets().isEmpty()) {
            fromSecrets.put(slot.path(), expansion.secrets());
        }
        return expansion.ok()
                ? Optional.of(new ScalarParser.Text(expansion.text(), scalar.plain(), expansion.expanded(), slot.secret()))
                : Optional.empty();
    }

    /** YAML's null as written, or a plain value that expanded to nothing ({@code ${TOKEN:-}}). */
    private static boolean isNull(Scalar scalar, ScalarParser.Text text) {
        return text.expanded() ? scalar.plain() && text.value().isEmpty() : scalar.isNull();
    }

    Optional<Object> bindRecord(Mapping mapping, Class<?> type, Slot slot, Set<String> alsoAllowed) {
        RecordShape shape = RecordShape.of(type);
        List<String> names = shape.keyNames();
        for (Entry entry : mapping.entries()) {
            if (!names.contains(entry.key()) && !alsoAllowed.contains(entry.key())) {
                problems.add(entry.keyPosition(), slot.entry(entry.key(), entry.keyPosition()).path(),
                        unknownKey(entry.key(), names));
            }
        }
        return bindComponents(mapping, shape, slot);
    }

    /**
     * Binds each component of {@code shape} from {@code mapping} and constructs the record; an
     * {@code @Inline} component is bound from the same mapping and slot, so its keys have flat paths.
     */
    private Optional<Object> bindComponents(Mapping mapping, RecordShape shape, Slot slot) {
        Object[] values = new Object[shape.components().size()];
        boolean complete = true;
        for (int i = 0; i < values.length; i++) {
            KeySpec spec = shape.components().get(i);
            Optional<Object> value = spec.inline()
                    ? bindComponents(mapping, RecordShape.of(spec.inlined()), slot)
                    : bindKey(mapping, spec, slot);
            if (value.isPresent()) {
                values[i] = value.get();
            } else {
                complete = false;
            }
        }
        return complete ? construct(shape, values, mapping, slot) : Optional.empty();
    }

    private Optional<Object> bindKey(Mapping mapping, KeySpec spec, Slot slot) {
        Optional<Entry> written = mapping.entry(spec.key());
        return written.isPresent()
                ? bind(written.get().value(), spec.type(), slot.key(spec.key(), written.get().keyPosition(), spec))
                : absent(spec, slot);
    }

    private Optional<Object> construct(RecordShape shape, Object[] values, Mapping mapping, Slot slot) {
        Object record;
        try {
            record = shape.construct(values);
        } catch (IllegalArgumentException e) {
            problems.add(slot.owner(), slot.path(), e.getMessage());
            return Optional.empty();
        }
        if (record instanceof ConfigChecked checked) {
            List<ConfigChecked.Violation> violations = checked.violations();
            for (ConfigChecked.Violation violation : violations) {
                Position at = mapping.entry(violation.key()).map(Entry::keyPosition).orElse(slot.owner());
                problems.add(at, slot.entry(violation.key(), at).path(), violation.message());
            }
            if (!violations.isEmpty()) {
                return Optional.empty();
            }
        }
        return Optional.of(record);
    }

    /** A key the file leaves out: its default, Optional.empty(), a record of defaults, or a problem. */
    private Optional<Object> absent(KeySpec spec, Slot parent) {
        Slot slot = parent.key(spec.key(), parent.owner(), spec);
        if (spec.defaultYaml().isPresent()) {
            return bind(parseDefault(spec).relocatedTo(parent.owner()), spec.type(), slot);
        }
        if (spec.type() instanceof OptionalType) {
            return Optional.of(Optional.empty());
        }
        if (!spec.required() && spec.type() instanceof RecordType record) {
            return bindRecord(new Mapping(List.of(), parent.owner()), record.type(), slot, Set.of());
        }
        problems.add(parent.owner(), slot.path(), "missing required key; expected " + expectation(spec.type(), slot));
        return Optional.empty();
    }

    /** The declared default as a tree; {@link DeclarationCheck} has already rejected invalid YAML. */
    private YamlValue parseDefault(KeySpec spec) {
        ProblemCollector defaultProblems = new ProblemCollector("@Default");
        Optional<YamlValue> parsed = reader.read(spec.defaultYaml().get(), defaultProblems);
        if (defaultProblems.count() > 0) {
            throw new IllegalStateException("unchecked @Default of " + spec.component());
        }
        return parsed.orElse(new Scalar("", true, Position.START));
    }

    private Optional<Object> bindVariant(Mapping mapping, VariantType type, Slot slot) {
        if (type.bySection()) {
            return bindSection(mapping, type, slot);
        }
        String choices = type.choices();
        Optional<Entry> discriminator = mapping.entry(ConfigType.VARIANT_KEY);
        Slot typeSlot = slot.entry(ConfigType.VARIANT_KEY, discriminator.map(Entry::keyPosition).orElse(slot.owner()));
        if (discriminator.isEmpty()) {
            problems.add(slot.owner(), typeSlot.path(), "missing required key; expected one of " + choices);
            return Optional.empty();
        }
        if (!(discriminator.get().value() instanceof Scalar scalar)) {
            return mismatch(discriminator.get().value(), new ConfigType.ScalarType(ConfigType.ScalarKind.STRING), typeSlot);
        }
        Optional<ScalarParser.Text> name = expand(scalar, typeSlot);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Class<?> variant = type.variants().get(name.get().value());
        if (variant == null) {
            String problem = "unknown type " + name.get().shown() + "; expected one of " + choices;
            problems.add(scalar.position(), typeSlot.path(), KeyNames.closest(name.get().value(), type.variants().keySet())
                    .map(s -> problem + " (did you mean `" + s + "`?)").orElse(problem));
            return Optional.empty();
        }
        return bindRecord(mapping, variant, slot, Set.of(ConfigType.VARIANT_KEY));
    }

    /**
     * A {@code @SelectedBySection} interface: the one variant whose section is present. With none,
     * every key no variant knows is reported (naming the sections), then the missing section; with
     * more than one, each section after the first.
     */
    private Optional<Object> bindSection(Mapping mapping, VariantType type, Slot slot) {
        List<Entry> sections = mapping.entries().stream().filter(e -> type.variants().containsKey(e.key())).toList();
        if (sections.size() == 1) {
            return bindRecord(mapping, type.variants().get(sections.get(0).key()), slot, Set.of());
        }
        if (sections.isEmpty()) {
            Set<String> shared = new LinkedHashSet<>();
            type.variants().forEach((name, record) -> RecordShape.of(record).keyNames().stream()
                    .filter(key -> !key.equals(name)).forEach(shared::add));
            List<String> known = new ArrayList<>(type.variants().keySet());
            known.addAll(shared);
            for (Entry entry : mapping.entries()) {
                if (!shared.contains(entry.key())) {
                    String problem = KeyNames.closest(entry.key(), known)
                            .map(s -> "unknown key (did you mean `" + s + "`?)")
                            .orElse("unknown key; expected a section " + type.choices());
                    problems.add(entry.keyPosition(), slot.entry(entry.key(), entry.keyPosition()).path(), problem);
                }
            }
            problems.add(slot.owner(), slot.path(), "missing a section; expected exactly one of " + type.choices());
            return Optional.empty();
        }
        for (Entry extra : sections.subList(1, sections.size())) {
            problems.add(extra.keyPosition(), slot.entry(extra.key(), extra.keyPosition()).path(), "only one of "
                    + type.choices() + " may be set here, and `" + sections.get(0).key() + "` already is");
        }
        return Optional.empty();
    }

    private Optional<Object> bindMap(Mapping mapping, MapType type, Slot slot) {
        Map<String, Object> values = new LinkedHashMap<>();
        boolean complete = true;
        for (Entry entry : mapping.entries()) {
            Optional<Object> value = bind(entry.value(), type.value(), slot.entry(entry.key(), entry.keyPosition()));
            value.ifPresent(v -> values.put(entry.key(), v));
            complete &= value.isPresent();
        }
        return complete ? Optional.of(Collections.unmodifiableMap(values)) : Optional.empty();
    }

    private Optional<Object> bindList(Sequence sequence, ListType type, Slot slot) {
        List<Object> values = new ArrayList<>();
        boolean complete = true;
        for (int i = 0; i < sequence.items().size(); i++) {
            YamlValue item = sequence.items().get(i);
            Optional<Object> value = bind(item, type.element(), slot.item(i, item.position()));
            value.ifPresent(values::add);
            complete &= value.isPresent();
        }
        return complete ? Optional.of(List.copyOf(values)) : Optional.empty();
    }

    private Optional<Object> mismatch(YamlValue node, ConfigType type, Slot slot) {
        problems.add(node.position(), slot.path(), "expected " + expectation(type, slot) + ", got " + describe(node, slot));
        return Optional.empty();
    }

    private static String expectation(ConfigType type, Slot slot) {
        if (type instanceof VariantType variant) {
            return variant.bySection() ? "a mapping with one section of " + variant.choices()
                    : "a mapping with `type:` one of " + variant.choices();
        }
        ConfigType scalar = type instanceof OptionalType o ? o.element() : type;
        if (scalar instanceof RecordType record) {
            List<String> required = RecordShape.of(record.type()).keys().stream()
                    .filter(KeySpec::required).map(k -> "`" + k.key() + "`").toList();
            return required.isEmpty() ? "a mapping" : "a mapping with " + String.join(", ", required);
        }
        if (scalar instanceof ScalarType s) {
            return ScalarParser.expectation(s.kind(), slot.range());
        }
        return ConfigType.expectation(type);
    }

    private static String describe(YamlValue node, Slot slot) {
        if (node instanceof Mapping) {
            return "a mapping";
        }
        if (node instanceof Sequence) {
            return "a list";
        }
        Scalar scalar = (Scalar) node;
        return scalar.isNull() ? "nothing" : new ScalarParser.Text(scalar.text(), true, false, slot.secret()).shown();
    }

    private static String unknownKey(String key, List<String> names) {
        return KeyNames.closest(key, names)
                .map(s -> "unknown key (did you mean `" + s + "`?)")
                .orElse("unknown key; expected one of " + names.stream().map(n -> "`" + n + "`").collect(Collectors.joining(", ")));
    }
}
