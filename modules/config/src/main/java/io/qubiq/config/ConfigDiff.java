package io.qubiq.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What changes between two bound configurations of the same root, key by key: every key path (as
 * {@link ConfigTree#leaves} writes them) whose value differs, was added or was removed, in the order
 * of the first configuration, then the keys only the second has. Secret values are compared as they
 * are and shown as {@link ConfigTree#MASK}, so a changed password is listed without its value.
 * Stateless; safe to call from any thread.
 */
public final class ConfigDiff {

    /**
     * One changed key; {@code from} or {@code to} is null where the key is absent on that side (an
     * optional key left out, an entry added to or removed from a map or list).
     */
    public record Change(String key, Object from, Object to) {
    }

    private ConfigDiff() {
    }

    public static List<Change> between(Record from, Record to) {
        Map<String, ConfigTree.Leaf> before = ConfigTree.leaves(from);
        Map<String, ConfigTree.Leaf> after = ConfigTree.leaves(to);
        Set<String> keys = new LinkedHashSet<>(before.keySet());
        keys.addAll(after.keySet());
        List<Change> changes = new ArrayList<>();
        for (String key : keys) {
            ConfigTree.Leaf a = before.get(key);
            ConfigTree.Leaf b = after.get(key);
            if (a == null || b == null || !Objects.equals(a.value(), b.value())) {
                changes.add(new Change(key, a == null ? null : a.shown(), b == null ? null : b.shown()));
            }
        }
        return changes;
    }
}
