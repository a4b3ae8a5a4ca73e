package io.qubiq.config.edit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.CollectionNode;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * One edit on one version of the text, for {@link YamlTextEditor}: finds the node at the key path and
 * splices the new text over exactly its span (see the editor's class doc for the rules). Used once.
 */
final class EditPass {

    private final String text;
    private final KeyPath path;

    EditPass(String text, KeyPath path) {
        this.text = text;
        this.path = path;
    }

    String apply(YamlEdit edit) throws YamlEditException {
        if (edit instanceof YamlEdit.Put put && put.value() == null) {
            throw new YamlEditException(path, "a value cannot be null; remove the key instead");
        }
        if (edit instanceof YamlEdit.Put put) {
            YamlRendering.inline(YamlRendering.isBlock(put.value()) ? "" : put.value()); // rejects unwritable values early
        }
        Node root = YamlTextEditor.compose(text, path);
        if (root == null || root instanceof ScalarNode s && s.getValue().isEmpty()) {
            return edit instanceof YamlEdit.Put put ? appendToEmpty(put.value()) : text;
        }
        if (!(root instanceof MappingNode)) {
            throw new YamlEditException(path, "the file's top level is not a section of keys");
        }
        Node node = root;
        List<Object> segments = path.segments();
        for (int i = 0; i < segments.size(); i++) {
            Object segment = segments.get(i);
            boolean last = i == segments.size() - 1;
            if (segment instanceof String key) {
                if (isEmptyScalar(node) && edit instanceof YamlEdit.Put put) {
                    // "key:" with nothing after it is an empty section: write the rest below it
                    return replaceValue(parentTupleKey, node, nest(segments.subList(i, segments.size()), put.value()));
                }
                if (!(node instanceof MappingNode mapping)) {
                    throw new YamlEditException(path, KeyPath.parse(prefix(i)) + " is " + describe(node)
                            + ", not a section, so it has no key '" + key + "'");
                }
                NodeTuple tuple = find(mapping, key);
                if (tuple == null) {
                    if (edit instanceof YamlEdit.Put put) {
                        return addKey(mapping, i, key, nest(segments.subList(i + 1, segments.size()), put.value()));
                    }
                    return text; // nothing to remove
                }
                refuseAlias(tuple.getKeyNode(), tuple.getValueNode(), i);
                if (last) {
                    return edit instanceof YamlEdit.Put put ? replaceValue(tuple.getKeyNode(), tuple.getValueNode(),
                            put.value()) : removeKey(mapping, tuple, i);
                }
                parentTupleKey = tuple.getKeyNode();
                node = tuple.getValueNode();
            } else {
                int index = (Integer) segment;
                if (!(node instanceof SequenceNode sequence)) {
                    throw new YamlEditException(path, KeyPath.parse(prefix(i)) + " is " + describe(node)
                            + ", not a list, so it has no item [" + index + "]");
                }
                List<Node> items = sequence.getValue();
                if (index == items.size() && last && edit instanceof YamlEdit.Put put) {
                    return appendItem(sequence, put.value());
                }
                if (index < 0 || index >= items.size()) {
                    if (edit instanceof YamlEdit.Remove) {
                        return text;
                    }
                    throw new YamlEditException(path, "the list " + KeyPath.parse(prefix(i)) + " has "
                            + items.size() + " items; there is no item [" + index + "]");
                }
                Node item = items.get(index);
                if (last) {
                    return edit instanceof YamlEdit.Put put ? replaceValue(null, item, put.value())
                            : removeItem(sequence, index);
                }
                parentTupleKey = null;
                node = item;
            }
        }
        throw new IllegalStateException("unreachable");
    }

    private Node parentTupleKey;

    private String prefix(int segmentsBefore) {
        return segmentsBefore == 0 ? "the top level" : new KeyPath(path.segments().subList(0, segmentsBefore)).toString();
    }

    private static NodeTuple find(MappingNode mapping, String key) {
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return tuple;
            }
        }
        return null;
    }

    private static Object nest(List<Object> keys, Object value) throws YamlEditException {
        Object nested = value;
        for (int i = keys.size() - 1; i >= 0; i--) {
            if (!(keys.get(i) instanceof String key)) {
                return null; // signalled below
            }
            Map<String, Object> section = new LinkedHashMap<>();
            section.put(key, nested);
            nested = section;
        }
        return nested;
    }

    private void refuseAlias(Node key, Node value, int depth) throws YamlEditException {
        if (index(value.getStartMark()) < index(key.getEndMark())) {
            throw new YamlEditException(path, new KeyPath(path.segments().subList(0, depth + 1))
                    + " is an alias of an anchor defined earlier (line " + (value.getStartMark().getLine() + 1)
                    + "); edit the anchor there");
        }
    }

    /**
     * A section or list whose last entry is removed, written empty: what it held goes away, so a
     * {@code ${VARIABLE}} in it is removed with it rather than replaced.
     */
    private String emptied(Node key, Node node, Object empty) throws YamlEditException {
        return replace(key, node, empty);
    }

    /** Replaces the value {@code node} (after {@code key}, or a list item when key is null) with {@code value}. */
    private String replaceValue(Node key, Node node, Object value) throws YamlEditException {
        if (value == null) {
            throw new YamlEditException(path, "items of a list cannot be added below it; put the whole list");
        }
        refuseEnvironment(node);
        return replace(key, node, value);
    }

    private String replace(Node key, Node node, Object value) throws YamlEditException {
        int start = index(node.getStartMark());
        int end = contentEnd(node);
        boolean oldBlock = node instanceof CollectionNode<?> c && c.getFlowStyle() == DumperOptions.FlowStyle.BLOCK
                && !c.getValue().isEmpty();
        boolean newBlock = YamlRendering.isBlock(value);
        if (oldBlock && newBlock) {
            int column = node.getStartMark().getColumn();
            return splice(start, end, YamlRendering.block(value, column).substring(column));
        }
        if (!oldBlock && !newBlock) {
            if (isEmptyScalar(node) && key != null) {
                int colon = colonAfter(key);
                return splice(colon + 1, Math.max(colon + 1, end), " " + YamlRendering.inline(value));
            }
            return splice(start, end, YamlRendering.inline(value));
        }
        if (key == null) {
            // a list item: its first line sits after the dash
            int column = node.getStartMark().getColumn();
            if (newBlock) {
                return splice(start, end, YamlRendering.block(value, column).substring(column));
            }
            return splice(start, end, YamlRendering.inline(value));
        }
        int colon = colonAfter(key);
        String gap = text.substring(colon + 1, start);
        String comment = commentIn(gap);
        if (newBlock) {
            int column = oldBlock ? node.getStartMark().getColumn() : key.getStartMark().getColumn() + 2;
            String head = comment.isEmpty() ? "" : " " + comment;
            return splice(colon + 1, end, head + "\n" + YamlRendering.block(value, column));
        }
        return splice(colon + 1, end, " " + YamlRendering.inline(value) + (comment.isEmpty() ? "" : "  " + comment));
    }

    private String addKey(MappingNode mapping, int depth, String key, Object value) throws YamlEditException {
        if (value == null) {
            throw new YamlEditException(path, new KeyPath(path.segments().subList(0, depth + 1))
                    + " does not exist, so it has no list items to set");
        }
        if (!mapping.getValue().isEmpty() && mapping.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            // {a: 1} gets ", key: value" after its last entry, in flow style too
            List<NodeTuple> tuples = mapping.getValue();
            int after = contentEnd(tuples.get(tuples.size() - 1).getValueNode());
            return splice(after, after, ", " + YamlRendering.key(key) + ": " + YamlRendering.flow(value));
        }
        if (mapping.getValue().isEmpty() || mapping.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            Map<String, Object> section = new LinkedHashMap<>();
            section.put(key, value);
            if (parentTupleKey == null && depth > 0) {
                return replaceValue(null, mapping, section);
            }
            return replaceValue(depth == 0 ? null : parentTupleKey, mapping, section);
        }
        int indent = mapping.getValue().get(0).getKeyNode().getStartMark().getColumn();
        int at = lineEnd(contentEnd(mapping));
        String prefix = at == text.length() && !text.isEmpty() && !text.endsWith("\n") ? "\n" : "";
        if (at < text.length()) {
            return splice(at, at, "\n" + YamlRendering.entry(key, value, indent));
        }
        return splice(text.length(), text.length(), prefix + YamlRendering.entry(key, value, indent) + "\n");
    }

    private String appendItem(SequenceNode sequence, Object value) throws YamlEditException {
        List<Node> items = sequence.getValue();
        if (items.isEmpty() || sequence.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            if (!items.isEmpty()) {
                throw new YamlEditException(path, "the list is written in flow style ([...]); rewrite it as"
                        + " indented lines to add items to it");
            }
            return replaceValue(parentTupleKey, sequence, List.of(value));
        }
        int dash = dashBefore(items.get(0));
        int column = dash - lineStart(dash);
        int at = lineEnd(contentEnd(sequence));
        String item = YamlRendering.block(List.of(value), column);
        if (at < text.length()) {
            return splice(at, at, "\n" + item);
        }
        return splice(text.length(), text.length(), (text.endsWith("\n") ? "" : "\n") + item + "\n");
    }

    private String removeKey(MappingNode mapping, NodeTuple tuple, int depth) throws YamlEditException {
        List<NodeTuple> tuples = mapping.getValue();
        int position = tuples.indexOf(tuple);
        if (mapping.getFlowStyle() == DumperOptions.FlowStyle.FLOW && tuples.size() > 1) {
            int keyStart = index(tuple.getKeyNode().getStartMark());
            if (position + 1 < tuples.size()) {
                // "a: 1, b: 2" without a: up to the next key
                return splice(keyStart, index(tuples.get(position + 1).getKeyNode().getStartMark()), "");
            }
            // the last entry: from the end of the one before it, its comma included
            int previousEnd = contentEnd(tuples.get(position - 1).getValueNode());
            return splice(previousEnd, contentEnd(tuple.getValueNode()), "");
        }
        int keyStart = index(tuple.getKeyNode().getStartMark());
        int lineStart = lineStart(keyStart);
        boolean ownsLine = text.substring(lineStart, keyStart).isBlank();
        if (tuples.size() == 1) {
            if (depth == 0) {
                return splice(lineStart, nextLineStart(contentEnd(tuple.getValueNode())), "");
            }
            return emptied(parentTupleKey, mapping, Map.of());
        }
        if (ownsLine) {
            return splice(lineStart, nextLineStart(contentEnd(tuple.getValueNode())), "");
        }
        if (position + 1 < tuples.size()) {
            // the first key of a list item, after its dash: the next key takes its place
            return splice(keyStart, index(tuples.get(position + 1).getKeyNode().getStartMark()), "");
        }
        throw new YamlEditException(path, "cannot remove this key as the file is laid out; edit the file");
    }

    private String removeItem(SequenceNode sequence, int index) throws YamlEditException {
        if (sequence.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            throw new YamlEditException(path, "the list is written in flow style ([...]); rewrite it as indented"
                    + " lines to remove items from it");
        }
        if (sequence.getValue().size() == 1) {
            return emptied(parentTupleKey, sequence, List.of());
        }
        Node item = sequence.getValue().get(index);
        int dash = dashBefore(item);
        int lineStart = lineStart(dash);
        if (!text.substring(lineStart, dash).isBlank()) {
            throw new YamlEditException(path, "cannot remove this item as the file is laid out; edit the file");
        }
        return splice(lineStart, nextLineStart(contentEnd(item)), "");
    }

    private String appendToEmpty(Object value) throws YamlEditException {
        Object nested = nest(path.segments(), value);
        if (nested == null) {
            throw new YamlEditException(path, "the file is empty, so it has no list to add to");
        }
        Map<?, ?> root = (Map<?, ?>) nested;
        Map.Entry<?, ?> entry = root.entrySet().iterator().next();
        String separator = text.isEmpty() || text.endsWith("\n") ? "" : "\n";
        return splice(text.length(), text.length(),
                separator + YamlRendering.entry((String) entry.getKey(), entry.getValue(), 0) + "\n");
    }

    private void refuseEnvironment(Node node) throws YamlEditException {
        String span = text.substring(index(node.getStartMark()), contentEnd(node)).replace("$${", "   ");
        // a ${secret:NAME} reference is the gateway's own (its secrets store): replaced like any value
        for (int at = span.indexOf("${"); at >= 0; at = span.indexOf("${", at + 2)) {
            if (span.startsWith("${secret:", at)) {
                continue;
            }
            int close = span.indexOf('}', at);
            String reference = close > at ? span.substring(at, close + 1) : span.substring(at);
            throw new YamlEditException(path, (node instanceof ScalarNode ? "takes its value from " : "holds a value from ")
                    + reference + " (the environment); change the variable, or edit the file");
        }
    }

    /** The end of what {@code node} itself spans: for a block collection, the end of its last value. */
    private int contentEnd(Node node) {
        if (node instanceof CollectionNode<?> collection && collection.getFlowStyle() == DumperOptions.FlowStyle.BLOCK
                && !collection.getValue().isEmpty()) {
            if (node instanceof MappingNode mapping) {
                return contentEnd(mapping.getValue().get(mapping.getValue().size() - 1).getValueNode());
            }
            List<Node> items = ((SequenceNode) node).getValue();
            return contentEnd(items.get(items.size() - 1));
        }
        int end = index(node.getEndMark());
        while (end > index(node.getStartMark()) && Character.isWhitespace(text.charAt(end - 1))) {
            end--; // a block scalar's end mark lies past its trailing line breaks
        }
        return end;
    }

    private int colonAfter(Node key) throws YamlEditException {
        int colon = text.indexOf(':', index(key.getEndMark()));
        if (colon < 0) {
            throw new YamlEditException(path, "cannot find the colon after the key");
        }
        return colon;
    }

    private int dashBefore(Node item) throws YamlEditException {
        int dash = text.lastIndexOf('-', index(item.getStartMark()) - 1);
        if (dash < 0) {
            throw new YamlEditException(path, "cannot find the list item's dash");
        }
        return dash;
    }

    private static String commentIn(String gap) {
        int hash = gap.indexOf('#');
        if (hash < 0) {
            return "";
        }
        int newline = gap.indexOf('\n', hash);
        return (newline < 0 ? gap.substring(hash) : gap.substring(hash, newline)).strip();
    }

    private int lineStart(int at) {
        return text.lastIndexOf('\n', at - 1) + 1;
    }

    /** Where the line holding {@code at} ends: its line break ({@code \r\n} or {@code \n}), or the text's end. */
    private int lineEnd(int at) {
        int newline = text.indexOf('\n', at);
        if (newline < 0) {
            return text.length();
        }
        return newline > 0 && text.charAt(newline - 1) == '\r' ? newline - 1 : newline;
    }

    /** The start of the line after the one holding {@code at}, or the text's end. */
    private int nextLineStart(int at) {
        int newline = text.indexOf('\n', at);
        return newline < 0 ? text.length() : newline + 1;
    }

    private int index(Mark mark) {
        return text.offsetByCodePoints(0, mark.getIndex());
    }

    /** Replaces {@code [start, end)}; new line breaks follow the file's ({@code \r\n} in a Windows file). */
    private String splice(int start, int end, String replacement) {
        String eol = text.contains("\r\n") ? "\r\n" : "\n";
        return text.substring(0, start) + replacement.replace("\n", eol) + text.substring(end);
    }

    private static boolean isEmptyScalar(Node node) {
        return node instanceof ScalarNode scalar && scalar.getValue().isEmpty()
                && scalar.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN;
    }

    private static String describe(Node node) {
        return node instanceof ScalarNode ? "a single value" : node instanceof SequenceNode ? "a list" : "a section";
    }
}
