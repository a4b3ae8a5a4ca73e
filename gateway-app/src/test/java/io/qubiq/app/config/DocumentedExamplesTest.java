package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.app.outbound.OutboundKinds;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.config.Doc;
import io.qubiq.pipeline.config.OutputConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The outbound connections and pipeline outputs that docs/pipelines.md shows load as written, each
 * as the kind its section names. (The files in config/, the demo packaged in the jar among them, are
 * loaded by {@link SampleConfigsTest}.)
 */
class DocumentedExamplesTest {

    private static final Path PIPELINES_MD = SampleConfigsTest.REPO.resolve("docs/pipelines.md");
    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL);

    /** Every ${VAR} the examples use is set. */
    private static final Map<String, String> ANY_ENV = new AbstractMap<>() {
        @Override
        public String get(Object key) {
            return "from-env";
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            return Set.of();
        }
    };

    @Doc("Outputs, as a pipeline lists them.")
    record Outputs(@Doc("The outputs.") List<OutputConfig> outputs) {
    }

    private static List<String> blocksStartingWith(String start) throws Exception {
        Matcher matcher = YAML_BLOCK.matcher(Files.readString(PIPELINES_MD));
        List<String> blocks = new ArrayList<>();
        while (matcher.find()) {
            if (matcher.group(1).startsWith(start)) {
                blocks.add(matcher.group(1));
            }
        }
        return blocks;
    }

    @Test
    void everyDocumentedOutboundSectionLoadsAsTheKindsItsSectionsName() throws Exception {
        List<String> examples = blocksStartingWith("outbound:");
        assertThat(examples).hasSize(2);
        List<String> kinds = new ArrayList<>();
        for (String yaml : examples) {
            GatewayConfig config = ConfigLoader.parse("docs/pipelines.md", yaml, GatewayConfig.class, ANY_ENV);
            config.outbound().values().forEach(connection -> kinds.add(OutboundKinds.of(connection).name()));
        }
        assertThat(kinds).containsExactly("sql", "sql", "mongodb", "mqtt", "questdb");
    }

    @Test
    void everyDocumentedOutputLoadsAsTheKindItsSectionNames() throws Exception {
        List<String> examples = blocksStartingWith("- connection:");
        List<String> kinds = new ArrayList<>();
        for (String yaml : examples) {
            Outputs outputs = ConfigLoader.parse("docs/pipelines.md", "outputs:\n" + yaml, Outputs.class, ANY_ENV);
            outputs.outputs().forEach(output -> kinds.add(OutboundKinds.of(output).name()));
        }
        assertThat(kinds).containsExactly("questdb", "sql", "mongodb", "mqtt");
    }
}
