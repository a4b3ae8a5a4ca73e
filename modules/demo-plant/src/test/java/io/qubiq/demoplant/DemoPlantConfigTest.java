package io.qubiq.demoplant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoPlantConfigTest {

    @Test
    void sampleConfigurationParses() throws Exception {
        DemoPlantConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-demo-plant.yaml"),
                DemoPlantConfig.class, Map.of());
        assertThat(config).isEqualTo(new DemoPlantConfig(0, 0, 500, 100, 7));
        assertThat(config.ticksPerPublish()).isEqualTo(5);
        assertThat(config.tick()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void leftOutKeysTakeTheDocumentedDefaults() throws Exception {
        DemoPlantConfig config = ConfigLoader.parse("demo.yaml", "{}", DemoPlantConfig.class, Map.of());
        assertThat(config).isEqualTo(DemoPlantConfig.defaults());
        assertThat(config.withOpcuaPort(0).withMqttPort(0)).isEqualTo(new DemoPlantConfig(0, 0, 1000, 200, 1));
    }

    @Test
    void aPortOrTickOutOfRangeIsReportedWithItsKey() {
        assertThatThrownBy(() -> ConfigLoader.parse("demo.yaml", """
                opcua_port: 70000
                mqtt_port: -1
                tick_ms: 5
                """, DemoPlantConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("opcua_port", "mqtt_port", "tick_ms"));
    }
}
