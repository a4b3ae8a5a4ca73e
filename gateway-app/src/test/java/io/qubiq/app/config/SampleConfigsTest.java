package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigReference;
import io.qubiq.core.config.Doc;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every sample configuration we ship parses, and the documented reference matches the declarations. */
class SampleConfigsTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", ".."));

    static List<Path> samples() throws IOException {
        try (Stream<Path> files = Files.list(REPO.resolve("config"))) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void everyShippedSampleConfigurationIsValid(Path sample) throws Exception {
        GatewayConfig config = ConfigLoader.load(sample, GatewayConfig.class, Map.of());
        assertThat(config.gateway().name()).isNotBlank();
    }

    @Test
    void theDemoPackagedInTheJarIsTheDocumentedDemoFile() throws Exception {
        GatewayConfig packaged = ConfigSource.demo(Map.of());
        GatewayConfig documented = ConfigLoader.load(REPO.resolve("config/demo.yaml"), GatewayConfig.class, Map.of());
        assertThat(packaged).isEqualTo(documented);
    }

    @Test
    void defaultSampleSpellsOutEveryDefault() throws Exception {
        GatewayConfig sample = ConfigLoader.load(REPO.resolve("config/gateway.yaml"), GatewayConfig.class, Map.of());
        GatewayConfig defaults = ConfigLoader.parse("empty.yaml", "", GatewayConfig.class, Map.of());
        assertThat(sample).isEqualTo(defaults);
    }

    @Test
    void configurationReferenceInDocsMatchesTheDeclarations() {
        // Regenerate with: mvn -pl gateway-app test -Dtest=SampleConfigsTest -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/configuration.md"),
                GatewayConfig.class);
        assertThat(mismatch).as("docs/configuration.md is out of date").isEmpty();
    }

    @Test
    void everyKeyOfTheRootIsDocumented() {
        for (RecordComponent component : GatewayConfig.class.getRecordComponents()) {
            assertThat(component.getAnnotation(Doc.class)).as(component.getName()).isNotNull();
        }
    }
}
