package io.qubiq.config.edit;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Changes a configuration file's YAML text key path by key path and leaves every byte it does not
 * have to change as it was: comments, blank lines, key order, quoting, anchors and {@code ${VARIABLE}}
 * references elsewhere in the file. What the console and the API change is written this way, so a
 * file kept by hand stays the operator's file.
 *
 * <p><b>How.</b> Each edit composes the text with SnakeYAML (node positions only; nothing is
 * constructed), finds the node at the key path and splices new text over exactly that node's span:
 * a scalar's characters, or a block section from its first key to the end of its last value (the
 * comments and blank lines after it stay). A missing key is added as a new line after the last entry
 * of its section, at that section's indentation, with any missing sections above it. Removing a key
 * removes its lines (or, for the first key of a list item, the key up to the next one). New values
 * are written by {@link YamlRendering}. After each edit the text is composed again and the value at
 * the path read back and compared: an edit that would not read back as asked fails instead of
 * writing something else.
 *
 * <p><b>What it refuses</b> ({@link YamlEditException}, the text unchanged): a path through a scalar
 * or a list where a section is needed, or an index past a list's end; a value written as
 * {@code ${VARIABLE}} (it comes from the environment: change the variable), or a section holding such
 * values replaced whole (removing it, or its last entry, is allowed: the values go away with it); a
 * node reached through an alias ({@code *name}: edit the anchor); adding to or removing from a non-empty
 * flow-style list ({@code [1, 2]}; a flow-style section {@code {a: 1}} grows and shrinks in flow style);
 * a file that is not valid YAML or whose root is not a section.
 *
 * <p>Stateless; safe to share.
 */
public final class YamlTextEditor {

    private YamlTextEditor() {
    }

    /** Applies {@code edits} in order and returns the new text; on any refusal nothing is applied. */
    public static String apply(String text, List<YamlEdit> edits) throws YamlEditException {
        Objects.requireNonNull(text, "text");
        String current = text;
        for (YamlEdit edit : edits) {
            String before = current;
            current = new EditPass(current, edit.path()).apply(edit);
            verify(before, current, edit);
        }
        return current;
    }

    static Node compose(String text, KeyPath path) throws YamlEditException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowRecursiveKeys(false);
        try {
            return new Yaml(options).compose(new StringReader(text));
        } catch (YAMLException e) {
            throw new YamlEditException(path, "the file is not valid YAML, so it cannot be edited: " + e.getMessage());
        }
    }

    private static void verify(String before, String after, YamlEdit edit) throws YamlEditException {
        Node found = at(compose(after, edit.path()), edit.path());
        boolean ok;
        if (edit instanceof YamlEdit.Put put) {
            ok = found != null && readBack(found).equals(expected(put.value()));
        } else if (edit.path().last() instanceof Integer) {
            // the items after a removed one move up: the list is one shorter, unless there was nothing to remove
            ok = readBack(at(compose(after, edit.path()), edit.path().parent())) instanceof List<?> now
                    && readBack(at(compose(before, edit.path()), edit.path().parent())) instanceof List<?> then
                    && (now.size() == then.size() - 1 || before.equals(after));
        } else {
            ok = found == null;
        }
        if (!ok) {
            throw new YamlEditException(edit.path(), "the edited file would not read back as intended; nothing was"
                    + " changed (please report this with the file)");
        }
    }

    private static Node at(Node root, KeyPath path) {
        Node found = root;
        for (Object segment : path.segments()) {
            found = found == null ? null : childOf(found, segment);
        }
        return found;
    }

    private static Node childOf(Node node, Object segment) {
        if (segment instanceof String key && node instanceof MappingNode mapping) {
            for (NodeTuple tuple : mapping.getValue()) {
                if (tuple.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                    return tuple.getValueNode();
                }
            }
        } else if (segment instanceof Integer index && node instanceof SequenceNode sequence
                && index >= 0 && index < sequence.getValue().size()) {
            return sequence.getValue().get(index);
        }
        return null;
    }

    private static Object readBack(Node node) {
        if (node == null) {
            return null;
        }
        if (node instanceof ScalarNode scalar) {
            return scalar.getValue();
        }
        if (node instanceof MappingNode mapping) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (NodeTuple tuple : mapping.getValue()) {
                map.put(((ScalarNode) tuple.getKeyNode()).getValue(), readBack(tuple.getValueNode()));
            }
            return map;
        }
        List<Object> list = new ArrayList<>();
        for (Node item : ((SequenceNode) node).getValue()) {
            list.add(readBack(item));
        }
        return list;
    }

    /** What {@link #readBack} gives for a value the editor wrote: scalars as their text, {@code ${} escaped. */
    private static Object expected(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), expected(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(YamlTextEditor::expected).toList();
        }
        if (value instanceof String text) {
            return text.replace("${", "$${");
        }
        if (value instanceof Reference reference) {
            return reference.text();
        }
        String inline = YamlRendering.inline(value);
        return inline;
    }
}
