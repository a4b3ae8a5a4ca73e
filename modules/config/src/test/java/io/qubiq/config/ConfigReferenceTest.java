package io.qubiq.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigReferenceTest {

    @Test
    void documentsEveryRecordOfTheTreeAsInTheGoldenFile() throws IOException {
        assertThat(ConfigReference.markdown(SampleConfig.class)).isEqualTo(golden());
    }

    @Test
    void generatesTheSameTextEveryTime() {
        assertThat(ConfigReference.markdown(SampleConfig.class)).isEqualTo(ConfigReference.markdown(SampleConfig.class));
    }

    @Test
    void acceptsADocumentWhoseGeneratedBlockIsCurrent(@TempDir Path dir) throws IOException {
        Path doc = dir.resolve("configuration.md");
        Files.writeString(doc, "# Configuration\n\nIntro.\n\n" + ConfigReference.BEGIN + "\n" + golden()
                + ConfigReference.END + "\n\nOutro.\n");

        assertThat(ConfigReference.verifyOrUpdate(doc, SampleConfig.class, false)).isEmpty();
    }

    @Test
    void describesTheFirstDifferenceOfAStaleDocument(@TempDir Path dir) throws IOException {
        Path doc = dir.resolve("configuration.md");
        String stale = golden().replace("| `port` | integer | `8080` |", "| `port` | integer | `80` |");
        Files.writeString(doc, "# Configuration\n\n" + ConfigReference.BEGIN + "\n" + stale + ConfigReference.END + "\n");

        assertThat(ConfigReference.verifyOrUpdate(doc, SampleConfig.class, false)).hasValueSatisfying(problem -> assertThat(problem)
                .startsWith(doc + " is out of date with the configuration declarations: line 25 is \"| `port` | integer | `80` |")
                .endsWith("Regenerate it by running this test with -Dqubiq.config.reference.update=true"));
    }

    @Test
    void regeneratesOnlyTheBlockBetweenTheMarkers(@TempDir Path dir) throws IOException {
        Path doc = dir.resolve("configuration.md");
        Files.writeString(doc, "# Configuration\n\nIntro.\n\n" + ConfigReference.BEGIN + "\nold\n" + ConfigReference.END + "\n\nOutro.\n");

        assertThat(ConfigReference.verifyOrUpdate(doc, SampleConfig.class, true)).isEmpty();

        assertThat(Files.readString(doc)).isEqualTo("# Configuration\n\nIntro.\n\n" + ConfigReference.BEGIN + "\n" + golden()
                + ConfigReference.END + "\n\nOutro.\n");
        assertThat(ConfigReference.verifyOrUpdate(doc, SampleConfig.class, false)).isEmpty();
    }

    @Test
    void reportsMissingMarkersAndMissingFiles(@TempDir Path dir) throws IOException {
        Path doc = dir.resolve("configuration.md");
        assertThat(ConfigReference.verifyOrUpdate(doc, SampleConfig.class, false)).hasValueSatisfying(problem ->
                assertThat(problem).startsWith(doc + " does not exist."));

        Files.writeString(doc, "# Configuration\n");
        assertThat(ConfigReference.verifyOrUpdate(doc, SampleConfig.class, false)).hasValueSatisfying(problem ->
                assertThat(problem).contains("the markers " + ConfigReference.BEGIN + " and " + ConfigReference.END + " are missing"));
    }

    private static String golden() throws IOException {
        try (InputStream in = ConfigReferenceTest.class.getResourceAsStream("/sample-config-reference.md")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
