package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigReference;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChannelConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        ChannelConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-channel.yaml"), ChannelConfig.class,
                Map.of());
        assertThat(config.maxBytes()).isEqualTo(2L << 30);
        assertThat(config.overflowPolicy()).contains(OverflowPolicy.REFUSE);
        assertThat(config.durability()).isEqualTo(Durability.ALWAYS);
        assertThat(config.maxDeliveryAttempts()).isEqualTo(5);
    }

    @Test
    void emptySectionTakesTheDocumentedDefaultsAndFollowsTheDestinationsPolicy() throws Exception {
        ChannelConfig config = ConfigLoader.parse("empty.yaml", "", ChannelConfig.class, Map.of());
        assertThat(config).isEqualTo(ChannelConfig.defaults());
        assertThat(config.overflowPolicyOr(OverflowPolicy.DROP_OLDEST)).isEqualTo(OverflowPolicy.DROP_OLDEST);
        assertThat(config.overflowPolicyOr(OverflowPolicy.REFUSE)).isEqualTo(OverflowPolicy.REFUSE);
    }

    @Test
    void inconsistentWaterMarksAndSizesAreReportedTogether() {
        assertThatThrownBy(() -> ConfigLoader.parse("sf.yaml", """
                max_bytes: 1048576
                segment_bytes: 4194304
                high_water_percent: 50
                low_water_percent: 70
                """, ChannelConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("low_water_percent", "max_bytes"));
    }

    @Test
    void storeAndForwardDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/store-and-forward.md"),
                ChannelConfig.class);
        assertThat(mismatch).as("docs/store-and-forward.md is out of date").isEmpty();
    }
}
