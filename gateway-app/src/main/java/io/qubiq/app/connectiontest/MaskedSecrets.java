package io.qubiq.app.connectiontest;

import io.qubiq.config.ConfigTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Puts a running connection's secrets back into settings sent by the console, which only ever sees
 * them masked ({@value ConfigTree#MASK}): each masked value is replaced by the value at the same key
 * path of the running connection's record ({@code opcua.identity.password}). Keys are the file's
 * snake_case names of the record components. A masked value with nothing running at its path is
 * left masked (the caller reports it). Stateless.
 */
public final class MaskedSecrets {

    private MaskedSecrets() {
    }

    /** {@code section} (plain JSON values) with every masked value taken from {@code running}. */
    public static Object restore(Object section, Object running) {
        if (section instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((key, value) -> out.put(String.valueOf(key), restore(value, child(running, String.valueOf(key)))));
            return out;
        }
        if (section instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Object element = running instanceof List<?> runningList && i < runningList.size() ? runningList.get(i) : null;
                out.add(restore(list.get(i), element));
            }
            return out;
        }
        if (ConfigTree.MASK.equals(section) && running != null && !(running instanceof Record)) {
            return running.toString();
        }
        return section;
    }

    /** Whether any value in {@code section} is still masked; the first one's key path, relative. */
    public static Optional<String> masked(Object section, String path) {
        if (section instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Optional<String> found = masked(entry.getValue(), path.isEmpty() ? String.valueOf(entry.getKey())
                        : path + "." + entry.getKey());
                if (found.isPresent()) {
                    return found;
                }
            }
        } else if (section instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                Optional<String> found = masked(list.get(i), path + "[" + i + "]");
                if (found.isPresent()) {
                    return found;
                }
            }
        } else if (ConfigTree.MASK.equals(section)) {
            return Optional.of(path);
        }
        return Optional.empty();
    }

    /**
     * The value of the key {@code key} (snake_case) of a configuration record, unwrapped; null if none.
     * A key of an {@code @Inline} record (an MQTT connection's {@code password}) is found where the file
     * writes it.
     */
    private static Object child(Object running, String key) {
        return running instanceof Record record ? ConfigTree.valueOf(record, key).orElse(null) : null;
    }
}
