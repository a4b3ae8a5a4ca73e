package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuditConfigTest {

    @Test
    void sampleConfigurationParses() throws Exception {
        AuditConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-audit.yaml"), AuditConfig.class,
                Map.of());
        assertThat(config.maxBytes()).isEqualTo(1L << 30);
        assertThat(config.segmentBytes()).isEqualTo(16 << 20);
        assertThat(config.maxAgeDays()).contains(730);
        assertThat(config.forwardTo()).contains("plant-questdb");
        assertThat(config.storeAndForward().maxBytes()).isEqualTo(256L << 20);
        assertThat(config.storeAndForward().overflowPolicyOr(OverflowPolicy.REFUSE)).isEqualTo(OverflowPolicy.REFUSE);
    }

    @Test
    void emptySectionTakesTheDocumentedDefaults() throws Exception {
        assertThat(ConfigLoader.parse("empty.yaml", "", AuditConfig.class, Map.of())).isEqualTo(AuditConfig.defaults());
    }

    @Test
    void badValuesAreReportedTogetherEachNamingItsKey() {
        assertThatThrownBy(() -> ConfigLoader.parse("audit.yaml", """
                max_bytes: 1048576
                segment_bytes: 4194304
                max_age_days: 0
                store_and_forward:
                  overflow_policy: drop_oldest
                """, AuditConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("max_age_days"));
        assertThatThrownBy(() -> ConfigLoader.parse("audit.yaml", """
                max_bytes: 1048576
                segment_bytes: 4194304
                store_and_forward:
                  overflow_policy: drop_oldest
                """, AuditConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("max_bytes", "store_and_forward.overflow_policy"))
                .hasMessageContaining("never drops");
    }

    @Test
    void anUnknownKeyIsRefusedByName() {
        assertThatThrownBy(() -> ConfigLoader.parse("audit.yaml", "max_size: 5\n", AuditConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("max_size"));
    }
}
