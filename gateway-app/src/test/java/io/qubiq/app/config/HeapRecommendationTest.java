package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap check-config recommends: the documented formula (docs/operations.md, "Memory"), pinned
 * to figures so that a changed constant or a part left out shows here and in the docs together.
 */
class HeapRecommendationTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", ".."));

    @TempDir
    Path dir;

    @Test
    void aConfigurationWithoutDevicesOrHistoryGetsTheLauncherDefault() throws Exception {
        HeapRecommendation recommendation = HeapRecommendation.of(ConfigSource.fromFile(REPO.resolve("config/gateway.yaml")));

        assertThat(recommendation.heapMib()).isEqualTo(HeapRecommendation.LAUNCHER_DEFAULT_MIB);
        // base 64 MiB + the audit channel's 4 x 1 MiB batches
        assertThat(recommendation.liveMib()).isEqualTo(68);
        assertThat(recommendation.describe()).contains("the launcher's default 256 MiB is enough");
    }

    @Test
    void theBuiltInDemoFitsTheLauncherDefault() throws Exception {
        HeapRecommendation recommendation = HeapRecommendation.of(ConfigSource.demo());

        // 64 base + 40 demo plant + 100,000 queued x 160 B (15.3) + 2 channels x 4 MiB = 127.3 MiB live; x 2 = 256
        // (measured: 107 MiB live after a full collection, docs/performance.md "Footprint")
        assertThat(recommendation.liveMib()).isEqualTo(128);
        assertThat(recommendation.heapMib()).isEqualTo(HeapRecommendation.LAUNCHER_DEFAULT_MIB);
    }

    @Test
    void sixThousandTagsWithHistoryNeedMoreThanTheDefaultBecauseTheLiveTailFillsItsBudget() throws Exception {
        HeapRecommendation recommendation = HeapRecommendation.of(config(opcuaTags(6_000) + "historian: {}\n"));

        // 64 base + 6,000 x 2 KiB (11.7) + 100,000 queued x 160 B (15.3) + 1,000,000 tail samples x 32 B (30.5)
        // + 2 channels (historian, audit) x 4 MiB = 129.5 MiB live; x 2 = 260, rounded up to 320
        assertThat(recommendation.liveMib()).isEqualTo(130);
        assertThat(recommendation.heapMib()).isEqualTo(320);
        assertThat(recommendation.describe())
                .contains("recommended heap: 320 MiB", "QUBIQ_HEAP=320m")
                .contains("6000 tags (6000 OPC UA, 0 MQTT)")
                .contains("min(6000 tags x 1000, 1000000) = 1000000 samples");
    }

    @Test
    void aWildcardSubscriptionCountsAsAHundredTagsAndEachPipelineAsAFullTriggerQueue() throws Exception {
        HeapRecommendation recommendation = HeapRecommendation.of(
                ConfigSource.fromFile(REPO.resolve("config/pipelines-example.yaml")));

        assertThat(recommendation.describe())
                .contains("102 tags (2 OPC UA, 100 MQTT, of which 1 wildcard subscription(s) counted as 100 each)")
                .contains("pipeline trigger queue(s), full: 50000 values x 160 B each");
        long pipelines = ConfigSource.fromFile(REPO.resolve("config/pipelines-example.yaml")).pipelines().size();
        assertThat(recommendation.liveMib()).isGreaterThanOrEqualTo(64 + pipelines * 50_000 * 160 / (1 << 20));
    }

    private GatewayConfig config(String yaml) throws Exception {
        return ConfigSource.fromFile(Files.writeString(dir.resolve("gateway.yaml"), yaml));
    }

    static String opcuaTags(int count) {
        StringBuilder yaml = new StringBuilder("""
                devices:
                  plc:
                    opcua:
                      endpoint_url: opc.tcp://127.0.0.1:4840
                      tags:
                """);
        for (int i = 0; i < count; i++) {
            yaml.append("        - {path: line/t").append(i).append(", node_id: \"ns=2;s=T").append(i).append("\"}\n");
        }
        return yaml.toString();
    }
}
