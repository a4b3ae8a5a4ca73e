package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.ConfigReference;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HistorianConfigTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", "../.."));

    @Test
    void sampleConfigurationParses() throws Exception {
        HistorianConfig config = ConfigLoader.load(Path.of("src/test/resources/sample-historian.yaml"),
                HistorianConfig.class, Map.of());

        assertThat(config.tablePrefix()).isEqualTo("plant_history");
        assertThat(config.partitionBy()).isEqualTo(PartitionUnit.WEEK);
        assertThat(config.ttlDays()).isEqualTo(28);
        assertThat(config.batchMaxRows()).isEqualTo(2000);
        assertThat(config.lingerMs()).isEqualTo(250);
        assertThat(config.liveTailSamplesPerTag()).isEqualTo(500);
        assertThat(config.liveTailMaxSamples()).isEqualTo(250_000);
        assertThat(config.maxResultRows()).isEqualTo(50000);
        assertThat(config.storeAndForward().maxBytes()).isEqualTo(2147483648L);
        assertThat(config.storeAndForward().overflowPolicyOr(OverflowPolicy.DROP_OLDEST))
                .isEqualTo(OverflowPolicy.DROP_OLDEST);
        assertThat(config.wal().resumeAttemptsPerTxn()).isEqualTo(2);
        assertThat(config.defaultRule().maxIntervalMs()).contains(600000L);
        assertThat(config.rules()).hasSize(3);
        assertThat(config.rules().get(0).deadbandAbsolute()).contains(0.5);
        assertThat(config.rules().get(1).mode()).isEqualTo(StorageMode.ALWAYS);
        assertThat(config.rules().get(2).deadbandPercent()).contains(2.5);
        assertThat(HistorySchema.of(config).createStatements().get(0)).isEqualTo("CREATE TABLE IF NOT EXISTS"
                + " plant_history_double (ts TIMESTAMP, tag SYMBOL, value DOUBLE, quality LONG, source_ts TIMESTAMP,"
                + " server_ts TIMESTAMP, gateway SYMBOL) TIMESTAMP(ts) PARTITION BY WEEK TTL 4 WEEKS WAL"
                + " DEDUP UPSERT KEYS(ts, gateway, tag, value, quality)");
    }

    @Test
    void emptySectionTakesTheDocumentedDefaults() throws Exception {
        assertThat(ConfigLoader.parse("empty.yaml", "", HistorianConfig.class, Map.of()))
                .isEqualTo(HistorianConfig.defaults());
    }

    @Test
    void crossKeyProblemsOfTheHistorianAreReportedTogether() {
        assertThatThrownBy(() -> ConfigLoader.parse("historian.yaml", """
                table_prefix: "bad-prefix"
                partition_by: month
                ttl_days: 30
                default_rule:
                  tags: plant1
                """, HistorianConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("table_prefix", "default_rule.tags"));
    }

    @Test
    void crossKeyProblemsOfRulesAndWalAreReportedTogether() {
        assertThatThrownBy(() -> ConfigLoader.parse("historian.yaml", """
                wal:
                  resume_backoff_initial_ms: 5000
                  resume_backoff_max_ms: 1000
                rules:
                  - tags: "a b"
                    deadband_absolute: 1
                    deadband_percent: 1
                  - tags: x
                    mode: always
                    deadband_absolute: 1
                    min_interval_ms: 5000
                    max_interval_ms: 1000
                """, HistorianConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("wal.resume_backoff_max_ms", "rules[0].tags", "rules[0].deadband_percent",
                                "rules[1].mode", "rules[1].max_interval_ms"));
    }

    @Test
    void ttlIsNinetyDaysByDefaultAndRoundedUpToWholePartitions() {
        assertThat(HistorianConfig.defaults().ttlDays()).isEqualTo(90);
        assertThat(HistoryTtl.of(90, PartitionUnit.DAY)).contains(new HistoryTtl(90, "DAY"));
        assertThat(HistoryTtl.of(1, PartitionUnit.HOUR)).contains(new HistoryTtl(1, "DAY"));
        assertThat(HistoryTtl.of(90, PartitionUnit.WEEK)).contains(new HistoryTtl(13, "WEEK"));
        assertThat(HistoryTtl.of(90, PartitionUnit.MONTH)).contains(new HistoryTtl(3, "MONTH"));
        assertThat(HistoryTtl.of(90, PartitionUnit.YEAR)).contains(new HistoryTtl(1, "YEAR"));
        assertThat(HistoryTtl.of(0, PartitionUnit.DAY)).as("0 keeps history").isEmpty();
        assertThat(HistorianConfig.defaults().withRetention(PartitionUnit.MONTH, 90).violations()).isEmpty();
        assertThat(HistorySchema.of(HistorianConfig.defaults()).createStatements().get(0)).contains(" TTL 90 DAYS ");
        assertThat(HistorySchema.of(HistorianConfig.defaults().withRetention(PartitionUnit.DAY, 0))
                .createStatements().get(0)).doesNotContain("TTL");
    }

    @Test
    void historianDocsListEveryKeyAsDeclared() {
        // Regenerate with -Dqubiq.config.reference.update=true
        Optional<String> mismatch = ConfigReference.verifyOrUpdate(REPO.resolve("docs/historian.md"),
                HistorianConfig.class);
        assertThat(mismatch).as("docs/historian.md is out of date").isEmpty();
    }
}
