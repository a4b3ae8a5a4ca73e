package io.qubiq.config;

import java.util.List;
import java.util.Optional;

/**
 * A YAML document as the binder sees it: scalars, mappings and sequences, each carrying the
 * position it was written at. SnakeYAML's node graph is converted into this once, so that the binder
 * never deals with tags, anchors or YAML 1.1 type resolution: a scalar is its text plus whether it
 * was written plain (unquoted), and the binder decides what the text means for the declared type.
 */
sealed interface YamlValue {

    /** Where a value starts; 1-based line and column. */
    record Position(int line, int column) {
        static final Position START = new Position(1, 1);
    }

    Position position();

    /**
     * Text as written, after YAML unescaping. {@code plain} is false for quoted and block scalars.
     * A plain scalar written as nothing, {@code ~} or {@code null} is YAML's null.
     */
    record Scalar(String text, boolean plain, Position position) implements YamlValue {
        boolean isNull() {
            return plain && (text.isEmpty() || text.equals("~") || text.equals("null")
                    || text.equals("Null") || text.equals("NULL"));
        }
    }

    /** One {@code key: value} pair; the key's own position is where unknown keys are reported. */
    record Entry(String key, Position keyPosition, YamlValue value) {
    }

    /** Entries in file order; the reader has already rejected duplicate keys. */
    record Mapping(List<Entry> entries, Position position) implements YamlValue {
        public Mapping {
            entries = List.copyOf(entries);
        }

        Optional<Entry> entry(String key) {
            return entries.stream().filter(e -> e.key().equals(key)).findFirst();
        }
    }

    record Sequence(List<YamlValue> items, Position position) implements YamlValue {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    /** The same tree with every position replaced: used for declared defaults, which have no file. */
    default YamlValue relocatedTo(Position at) {
        if (this instanceof Scalar s) {
            return new Scalar(s.text(), s.plain(), at);
        }
        if (this instanceof Mapping m) {
            return new Mapping(m.entries().stream()
                    .map(e -> new Entry(e.key(), at, e.value().relocatedTo(at))).toList(), at);
        }
        Sequence q = (Sequence) this;
        return new Sequence(q.items().stream().map(i -> i.relocatedTo(at)).toList(), at);
    }
}
