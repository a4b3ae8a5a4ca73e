package io.qubiq.app.config;

import io.qubiq.config.ConfigTree;
import io.qubiq.config.edit.KeyPath;
import io.qubiq.config.edit.YamlEdit;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns "the value at this key path is now X" into the fewest file edits: the new value and the value
 * the gateway reads there now (the masked tree, with every default) are flattened to leaves, and only
 * the leaves that differ become edits ({@link YamlEdit.Put} for a changed or new leaf, {@link YamlEdit.Remove}
 * for one that is gone). A key sent back as it reads, a default included, is not written; a secret sent
 * back as {@link ConfigTree#MASK} is unchanged. Lists and empty sections are leaves of their own: a changed
 * list is written whole. Numbers compare by value ({@code 5} equals {@code 5.0}).
 *
 * <p>Stateless.
 */
final class LeafEdits {

    /**
     * The edits, removals first.
     *
     * @param tree the masked tree of the configuration the file holds now
     */
    static List<YamlEdit> of(Map<String, Object> tree, KeyPath path, Object value) {
        Map<KeyPath, Object> before = new LinkedHashMap<>();
        at(tree, path).ifPresent(old -> flatten(path, old, before));
        Map<KeyPath, Object> after = new LinkedHashMap<>();
        flatten(path, value, after);
        List<YamlEdit> edits = new ArrayList<>();
        before.keySet().stream().filter(key -> !after.containsKey(key)).forEach(key -> edits.add(new YamlEdit.Remove(key)));
        after.forEach((key, v) -> {
            if (!before.containsKey(key) || !same(before.get(key), v)) {
                edits.add(new YamlEdit.Put(key, v));
            }
        });
        return edits;
    }

    /** The value at {@code path} in {@code tree}, if the tree has one. */
    static Optional<Object> at(Map<String, Object> tree, KeyPath path) {
        Object node = tree;
        for (Object segment : path.segments()) {
            if (segment instanceof String key && node instanceof Map<?, ?> map && map.containsKey(key)) {
                node = map.get(key);
            } else if (segment instanceof Integer index && node instanceof List<?> list && index < list.size()) {
                node = list.get(index);
            } else {
                return Optional.empty();
            }
        }
        return Optional.ofNullable(node);
    }

    private static void flatten(KeyPath path, Object value, Map<KeyPath, Object> out) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            map.forEach((key, v) -> flatten(path.child(String.valueOf(key)), v, out));
        } else {
            out.put(path, value);
        }
    }

    static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            return x.keySet().equals(y.keySet()) && x.keySet().stream().allMatch(k -> same(x.get(k), y.get(k)));
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return Objects.equals(a, b);
    }

    private LeafEdits() {
    }
}
