package io.qubiq.config.edit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Every single value of the configuration files we ship, changed one at a time: exactly one line of
 * the file changes and every comment stays. Would catch a splice off by a character (Unicode, CRLF,
 * quoting), a value written where another one was, or a comment eaten with the value.
 */
class ShippedFilesEditTest {

    private static final Path CONFIG = Path.of("../../config");

    @ParameterizedTest
    @ValueSource(strings = {"gateway.yaml", "demo.yaml", "pipelines-example.yaml"})
    void changingAnyOneValueChangesExactlyItsLine(String file) throws Exception {
        String text = Files.readString(CONFIG.resolve(file));
        List<KeyPath> leaves = new ArrayList<>();
        collect(new Yaml(new LoaderOptions()).compose(new StringReader(text)), new KeyPath(List.of()), leaves);
        assertThat(leaves).as("values in " + file).hasSizeGreaterThan(5);
        int edited = 0;
        for (KeyPath leaf : leaves) {
            String after;
            try {
                after = YamlTextEditor.apply(text, List.of(new YamlEdit.Put(leaf, "changed-value")));
            } catch (YamlEditException e) {
                assertThat(e.getMessage()).as(leaf.toString()).containsAnyOf("environment", "alias");
                continue;
            }
            edited++;
            List<String> before = text.lines().toList();
            List<String> now = after.lines().toList();
            assertThat(now).as(leaf + " keeps the number of lines").hasSameSizeAs(before);
            int changed = 0;
            for (int i = 0; i < before.size(); i++) {
                if (!before.get(i).equals(now.get(i))) {
                    changed++;
                    assertThat(now.get(i)).as(leaf.toString()).contains("changed-value");
                    int hash = before.get(i).indexOf(" #");
                    if (hash >= 0 && !before.get(i).substring(0, hash).contains("\"")) {
                        assertThat(now.get(i)).as(leaf + " keeps its comment").endsWith(before.get(i).substring(hash));
                    }
                }
            }
            assertThat(changed).as(leaf + " changes one line").isEqualTo(1);
        }
        assertThat(edited).as("values of " + file + " that could be edited").isGreaterThan(leaves.size() / 2);
    }

    private static void collect(Node node, KeyPath path, List<KeyPath> leaves) {
        if (node instanceof MappingNode mapping) {
            for (NodeTuple tuple : mapping.getValue()) {
                String key = ((ScalarNode) tuple.getKeyNode()).getValue();
                if (!key.equals("<<")) {
                    collect(tuple.getValueNode(), path.child(key), leaves);
                }
            }
        } else if (node instanceof SequenceNode sequence) {
            for (int i = 0; i < sequence.getValue().size(); i++) {
                collect(sequence.getValue().get(i), path.child(i), leaves);
            }
        } else if (node instanceof ScalarNode scalar && !scalar.getValue().isEmpty()
                && scalar.getScalarStyle() != org.yaml.snakeyaml.DumperOptions.ScalarStyle.FOLDED
                && scalar.getScalarStyle() != org.yaml.snakeyaml.DumperOptions.ScalarStyle.LITERAL) {
            // block scalars span several lines by design: YamlTextEditorTest covers replacing one
            leaves.add(path);
        }
    }
}
