package io.qubiq.config;

import io.qubiq.config.YamlValue.Entry;
import io.qubiq.config.YamlValue.Mapping;
import io.qubiq.config.YamlValue.Position;
import io.qubiq.config.YamlValue.Scalar;
import io.qubiq.config.YamlValue.Sequence;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Turns YAML text into a {@link YamlValue} tree using SnakeYAML's composer, which keeps the start
 * position of every node (Jackson's tree does not). Only the node graph is used: no SnakeYAML
 * constructor runs, so YAML 1.1 implicit types ({@code yes}, {@code on}, {@code 0777}) never reach
 * the binder, and no arbitrary classes are instantiated.
 *
 * <p>Reports into the given collector, without stopping: a syntax error (one problem, the tree is
 * then absent), every duplicate key (the first occurrence wins), non-scalar keys and recursive
 * aliases. Merge keys ({@code <<: *defaults}) are applied here. Stateless; safe to share.
 */
final class YamlReader {

    private static final int MAX_ALIASES = 50;
    private static final String MERGE_KEY = "<<";

    /** The document's root, or empty when the text is empty or cannot be parsed. */
    Optional<YamlValue> read(String text, ProblemCollector problems) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setAllowRecursiveKeys(false);
        Node root;
        try {
            root = new Yaml(options).compose(new java.io.StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            problems.add(mark == null ? Position.START : position(mark), "",
                    "YAML syntax error: " + syntaxMessage(e));
            return Optional.empty();
        } catch (YAMLException e) {
            problems.add(Position.START, "", "YAML syntax error: " + e.getMessage());
            return Optional.empty();
        }
        if (root == null) {
            return Optional.empty();
        }
        return Optional.of(convert(root, "", problems, Collections.newSetFromMap(new IdentityHashMap<>())));
    }

    private YamlValue convert(Node node, String path, ProblemCollector problems, Set<Node> open) {
        Position at = position(node.getStartMark());
        if (node instanceof ScalarNode scalar) {
            return new Scalar(scalar.getValue(), scalar.isPlain(), at);
        }
        if (!open.add(node)) {
            problems.add(at, path, "an alias refers to a collection that contains it");
            return new Scalar("", true, at);
        }
        try {
            if (node instanceof SequenceNode sequence) {
                List<YamlValue> items = new ArrayList<>();
                for (Node item : sequence.getValue()) {
                    items.add(convert(item, path + "[" + items.size() + "]", problems, open));
                }
                return new Sequence(items, at);
            }
            return convertMapping((MappingNode) node, path, problems, open);
        } finally {
            open.remove(node);
        }
    }

    private Mapping convertMapping(MappingNode node, String path, ProblemCollector problems, Set<Node> open) {
        List<Entry> entries = new ArrayList<>();
        List<Entry> merged = new ArrayList<>();
        Map<String, Position> seen = new HashMap<>();
        for (NodeTuple tuple : node.getValue()) {
            Position keyAt = position(tuple.getKeyNode().getStartMark());
            if (!(tuple.getKeyNode() instanceof ScalarNode keyNode)) {
                problems.add(keyAt, path, "a key must be a plain name, not a list or mapping");
                continue;
            }
            String key = keyNode.getValue();
            String keyPath = path.isEmpty() ? key : path + "." + key;
            if (key.equals(MERGE_KEY) && keyNode.isPlain()) {
                merge(convert(tuple.getValueNode(), path, problems, open), keyAt, path, problems, merged);
                continue;
            }
            Position first = seen.putIfAbsent(key, keyAt);
            if (first != null) {
                problems.add(keyAt, keyPath, "duplicate key (first written at line " + first.line() + ")");
                continue;
            }
            entries.add(new Entry(key, keyAt, convert(tuple.getValueNode(), keyPath, problems, open)));
        }
        for (Entry entry : merged) {
            if (seen.putIfAbsent(entry.key(), entry.keyPosition()) == null) {
                entries.add(entry);
            }
        }
        return new Mapping(entries, position(node.getStartMark()));
    }

    /**
     * YAML's merge key: {@code <<: *base} (or a list of aliases, earlier ones winning) adds the
     * entries of the merged mappings that this mapping does not write itself.
     */
    private static void merge(YamlValue value, Position at, String path, ProblemCollector problems, List<Entry> merged) {
        List<YamlValue> sources = value instanceof Sequence sequence ? sequence.items() : List.of(value);
        for (YamlValue source : sources) {
            if (source instanceof Mapping mapping) {
                merged.addAll(mapping.entries());
            } else {
                problems.add(at, path, "`<<` merges a mapping or a list of mappings");
            }
        }
    }

    private static Position position(Mark mark) {
        return new Position(mark.getLine() + 1, mark.getColumn() + 1);
    }

    /** SnakeYAML's message without its source snippet: the problem and, when given, its context. */
    private static String syntaxMessage(MarkedYAMLException e) {
        String problem = e.getProblem() == null ? "malformed document" : e.getProblem();
        if (problem.startsWith("but ") && e.getContext() != null) {
            return e.getContext() + ", " + problem;
        }
        if (e.getContext() != null && e.getContextMark() != null && e.getProblemMark() != null
                && e.getContextMark().getLine() != e.getProblemMark().getLine()) {
            return problem + " (" + e.getContext() + " at line " + (e.getContextMark().getLine() + 1) + ")";
        }
        return e.getContext() == null ? problem : problem + " (" + e.getContext() + ")";
    }
}
