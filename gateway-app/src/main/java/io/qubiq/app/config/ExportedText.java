package io.qubiq.app.config;

import io.qubiq.config.edit.KeyPath;
import io.qubiq.config.edit.YamlEdit;
import io.qubiq.config.edit.YamlEditException;
import io.qubiq.config.edit.YamlTextEditor;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The configuration file as it leaves the gateway (export) and comes back (import), without secrets
 * travelling in clear: on export, the value of every secret key written into the file in clear
 * becomes {@code ***} (edited in place, so the rest of the file is byte for byte the file;
 * {@code ${VARIABLE}} references name no secret and stay); on import, a secret key whose value is
 * {@code ***} takes the value the file holds now at the same key path. A masked secret the file does
 * not have, or holds as a reference, cannot be filled in and is refused with its key path.
 *
 * <p>Stateless apart from the secret key names; safe to share.
 */
final class ExportedText {

    static final String MASK = "***";

    private final Set<String> secretNames;

    ExportedText(Set<String> secretNames) {
        this.secretNames = Set.copyOf(secretNames);
    }

    /** {@code text} with its clear-text secrets masked. */
    String masked(String text) throws YamlEditException {
        List<YamlEdit> edits = new ArrayList<>();
        for (Secret secret : secrets(text)) {
            if (!secret.value().contains("${") && !secret.value().equals(MASK)) {
                edits.add(new YamlEdit.Put(secret.path(), MASK));
            }
        }
        return YamlTextEditor.apply(text, edits);
    }

    /**
     * {@code imported} with each masked secret filled in from {@code current}.
     *
     * @throws YamlEditException a masked secret that {@code current} cannot fill in, naming its key path
     */
    String unmasked(String imported, String current) throws YamlEditException {
        List<Secret> now = secrets(current);
        List<YamlEdit> edits = new ArrayList<>();
        for (Secret secret : secrets(imported)) {
            if (!secret.value().equals(MASK)) {
                continue;
            }
            Optional<Secret> known = now.stream().filter(s -> s.path().equals(secret.path())).findFirst();
            if (known.isEmpty()) {
                throw new YamlEditException(secret.path(), "is masked (***) and the configuration has no secret"
                        + " there to keep; write the secret, or a ${VARIABLE} reference");
            }
            edits.add(new YamlEdit.Put(secret.path(), known.get().value()));
        }
        return YamlTextEditor.apply(imported, edits);
    }

    /**
     * {@code text} with each secret it brings in clear replaced by a reference to a new secret in {@code into}.
     * A mask, a {@code ${...}} reference, and a value the {@code current} file holds in clear at the same key
     * path (written there by hand) stay as they are.
     */
    String intoStore(String text, String current, NewSecrets into) throws YamlEditException {
        List<Secret> now = secrets(current);
        List<YamlEdit> edits = new ArrayList<>();
        for (Secret secret : secrets(text)) {
            if (!secret.value().contains("${") && !secret.value().equals(MASK) && !now.contains(secret)) {
                edits.add(new YamlEdit.Put(secret.path(), into.enter(secret.path(), secret.value())));
            }
        }
        return YamlTextEditor.apply(text, edits);
    }

    private record Secret(KeyPath path, String value) {
    }

    /** Every scalar under a secret key's name, with its path; nothing for text that is not YAML. */
    private List<Secret> secrets(String text) {
        List<Secret> found = new ArrayList<>();
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowRecursiveKeys(false);
            root = new Yaml(options).compose(new StringReader(text));
        } catch (RuntimeException e) {
            return found; // the loader reports what is wrong with it
        }
        walk(root, new KeyPath(List.of()), found);
        return found;
    }

    private void walk(Node node, KeyPath path, List<Secret> found) {
        if (node instanceof MappingNode mapping) {
            for (NodeTuple tuple : mapping.getValue()) {
                if (!(tuple.getKeyNode() instanceof ScalarNode key) || key.getValue().equals("<<")) {
                    continue;
                }
                KeyPath child = path.child(key.getValue());
                if (secretNames.contains(key.getValue()) && tuple.getValueNode() instanceof ScalarNode value
                        && !value.getValue().isEmpty()) {
                    found.add(new Secret(child, value.getValue()));
                } else {
                    walk(tuple.getValueNode(), child, found);
                }
            }
        } else if (node instanceof SequenceNode sequence) {
            for (int i = 0; i < sequence.getValue().size(); i++) {
                walk(sequence.getValue().get(i), path.child(i), found);
            }
        }
    }
}
