package io.qubiq.app.config;

import io.qubiq.config.ConfigTree;
import io.qubiq.config.SecretLookup;
import io.qubiq.config.edit.KeyPath;
import io.qubiq.config.edit.Reference;
import io.qubiq.config.edit.YamlEdit;
import io.qubiq.config.edit.YamlEditException;
import io.qubiq.config.secret.SecretStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The secrets one change of the configuration enters in clear (a password typed in the console): each
 * value is taken out of what will be written to the file and replaced by a {@code ${secret:NAME}}
 * reference to a new name in the gateway's {@link SecretStore}, so the file and its revisions never hold
 * it. The values wait here until the change is valid; the caller keeps them in the store before it writes
 * the file ({@link #values()}).
 *
 * <p>A secret key's value is taken as typed, {@code ${...}} included (the editor writes every value it is
 * given as a literal); {@link ConfigTree#MASK} means unchanged, and where the file has no secret to keep it
 * is refused: it would write {@code ***} as the password.
 *
 * <p>Resolves references to the new names as well as to the store's ({@link SecretLookup}), so the new
 * file can be validated before anything is kept. One per change, under the configuration writer's lock.
 */
final class NewSecrets implements SecretLookup {

    private final SecretStore store;
    private final Set<String> secretKeys;
    private final Map<String, String> values = new LinkedHashMap<>();

    NewSecrets(SecretStore store, Set<String> secretKeys) {
        this.store = store;
        this.secretKeys = Set.copyOf(secretKeys);
    }

    /**
     * {@code put} with every clear secret value in it (at its key, or inside a list or section it writes)
     * replaced by a reference to a new secret.
     *
     * @throws YamlEditException a mask written where no secret is kept, naming the key path
     */
    YamlEdit.Put place(YamlEdit.Put put) throws YamlEditException {
        return new YamlEdit.Put(put.path(), place(put.path(), put.value()));
    }

    private Object place(KeyPath path, Object value) throws YamlEditException {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.put(entry.getKey(), place(path.child(String.valueOf(entry.getKey())), entry.getValue()));
            }
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                out.add(place(path.child(i), list.get(i)));
            }
            return out;
        }
        if (!(path.last() instanceof String key) || !secretKeys.contains(key) || !(value instanceof String text)) {
            return value;
        }
        if (ConfigTree.MASK.equals(text)) {
            throw new YamlEditException(path, "reads " + ConfigTree.MASK + ", the mask of a secret, but the"
                    + " configuration keeps no secret there: enter the secret itself");
        }
        return enter(path, text);
    }

    /** A reference to a new secret holding {@code value}, for the secret key at {@code path}. */
    Reference enter(KeyPath path, String value) {
        String name = store.newName(path.toString(), values.keySet());
        values.put(name, value);
        return new Reference(SecretStore.reference(name));
    }

    /** The new secrets, name to value; empty when the change enters none. */
    Map<String, String> values() {
        return Collections.unmodifiableMap(values);
    }

    @Override
    public Optional<String> secret(String name) {
        String value = values.get(name);
        return value != null ? Optional.of(value) : store.secret(name);
    }
}
