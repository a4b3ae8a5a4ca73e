package io.qubiq.app.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.ConfigApplier;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The historian's storage rules changed live on a gateway writing into a real (embedded) QuestDB: the
 * new rule decides from the next value on, counted by what QuestDB acknowledged. Would catch a change
 * answered as applied that still stores by the old rule, and one that needs the historian restarted
 * (rows lost or the channel reopened).
 */
class LiveHistorianApplyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TagPath TAG = TagPath.of("line/flow");

    @TempDir
    Path dir;
    private DataDirectory data;
    private Gateway gateway;

    private static LoadedConfig config(String defaultRule, int lingerMs) throws Exception {
        return LoadedConfig.bind("test.yaml", "sha256", TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                questdb:
                  embedded: true
                  embedded_http_port: 0
                  embedded_pg_port: 0
                  embedded_max_heap_mb: 256
                historian:
                  linger_ms: %d
                  store_and_forward:
                    linger_ms: 10
                  default_rule: %s
                """.formatted(lingerMs, defaultRule), Map.of());
    }

    @BeforeEach
    void start() throws Exception {
        data = DataDirectory.open(dir);
        gateway = new Gateway(config("{deadband_absolute: 1000}", 50), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
    }

    @AfterEach
    void stop() throws Exception {
        gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        data.close();
    }

    private void publish(int from, int to) {
        for (int i = from; i <= to; i++) {
            gateway.tagBus().publish(TagValue.good(TAG, (double) i, Instant.now()));
        }
    }

    private long delivered() throws Exception {
        return JSON.readTree(TestOperators.admin(gateway).get("/api/v1/store-forward/historian").body())
                .path("itemsDelivered").asLong();
    }

    @Test
    void aStorageRuleChangedLiveStoresByTheNewRuleFromTheNextValueOn() throws Exception {
        publish(1, 50);
        await().atMost(Duration.ofSeconds(60)).until(() -> delivered() >= 1);
        Thread.sleep(500);
        assertThat(delivered()).as("within the deadband of 1000: only the first value").isEqualTo(1);

        ConfigApplier.Applied result = gateway.configApplier().apply(config("{deadband_absolute: 1000}", 50),
                config("{mode: always}", 50), Set.of("historian"));
        assertThat(result.applied()).containsExactly("historian");
        publish(51, 100);

        await().atMost(Duration.ofSeconds(60)).until(() -> delivered() >= 51);
        Thread.sleep(500);
        assertThat(delivered()).as("every value after the change, once").isEqualTo(51);
    }

    @Test
    void anotherHistorianSettingWaitsForARestart() throws Exception {
        ConfigApplier.Applied result = gateway.configApplier().apply(config("{deadband_absolute: 1000}", 50),
                config("{deadband_absolute: 1000}", 200), Set.of("historian"));

        assertThat(result.needRestart()).containsExactly("historian");
    }
}
