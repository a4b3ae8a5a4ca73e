package io.qubiq.config.edit;

/**
 * One change to a configuration file, by key path. Values are what the loader would read back:
 * {@link String}, {@link Boolean}, whole numbers ({@link Long}, {@link Integer}), decimals
 * ({@link Double}), {@code null}, {@link java.util.List}s and {@link java.util.Map}s (in their
 * iteration order) of those, and {@link Reference}s (written unescaped).
 */
public sealed interface YamlEdit {

    KeyPath path();

    /** Sets the value at {@code path}, creating the key (and missing sections above it) when absent. */
    record Put(KeyPath path, Object value) implements YamlEdit {
    }

    /** Removes the key at {@code path} (or the sequence item); nothing to do when it is absent. */
    record Remove(KeyPath path) implements YamlEdit {
    }

    static YamlEdit put(String path, Object value) {
        return new Put(KeyPath.parse(path), value);
    }

    static YamlEdit remove(String path) {
        return new Remove(KeyPath.parse(path));
    }
}
