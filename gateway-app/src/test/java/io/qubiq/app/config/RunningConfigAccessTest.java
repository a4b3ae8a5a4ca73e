package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.console.ConfigAccess;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a changed key restarts: one connection, one pipeline, the historian, or the whole gateway. */
class RunningConfigAccessTest {

    @Test
    void aKeyInsideOneConnectionOrPipelineRestartsOnlyThatOne() {
        assertThat(RunningConfigAccess.componentOf("devices.plc1.opcua.tags[3].path")).contains("device:plc1");
        assertThat(RunningConfigAccess.componentOf("devices.plc-2")).contains("device:plc-2");
        assertThat(RunningConfigAccess.componentOf("outbound.db.store_and_forward.max_bytes")).contains("outbound:db");
        assertThat(RunningConfigAccess.componentOf("pipelines.counts.outputs[0].connection"))
                .contains("pipeline:counts");
        assertThat(RunningConfigAccess.componentOf("historian.linger_ms")).contains("historian");
        assertThat(RunningConfigAccess.componentOf("historian")).contains("historian");
    }

    @Test
    void anyOtherKeyRestartsTheGateway() {
        assertThat(RunningConfigAccess.componentOf("http.port")).contains("gateway");
        assertThat(RunningConfigAccess.componentOf("devices")).as("the whole map, emptied: its entries say what").isEmpty();
        assertThat(RunningConfigAccess.componentOf("questdb.embedded")).contains("gateway");
        assertThat(RunningConfigAccess.componentOf("historians.x")).contains("gateway");
    }

    @Test
    void theBuiltInDemoHasAnEmbeddedRevisionAndValidatesAgainstItselfWithNoDiff() throws Exception {
        LoadedConfig demo = ConfigSource.loadDemo(Map.of());
        RunningConfigAccess access = new RunningConfigAccess(demo);
        String text;
        try (InputStream in = ConfigSource.class.getResourceAsStream(ConfigSource.DEMO_RESOURCE)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        ConfigAccess.Running running = access.running();
        ConfigAccess.Validation same = access.validate(text, "demo.yaml");

        assertThat(running.revision()).isEqualTo("embedded-demo:" + LoadedConfig.sha256(text));
        assertThat(running.source()).isEqualTo(ConfigSource.DEMO_NAME);
        assertThat(running.fromEnvironment()).singleElement().satisfies(key -> {
            assertThat(key.key()).isEqualTo("auth.admin_password");
            assertThat(key.variables()).containsExactly("QUBIQ_ADMIN_PASSWORD");
        });
        assertThat(same.valid()).isTrue();
        assertThat(same.diff()).isEmpty();
        assertThat(same.restarts()).isEmpty();
    }

    @Test
    void theCommandLineOverridesApplyToTheCandidateAsToTheRunningConfiguration() throws Exception {
        LoadedConfig demo = ConfigSource.loadDemo(Map.of()).withHttpPort(9191);
        String text;
        try (InputStream in = ConfigSource.class.getResourceAsStream(ConfigSource.DEMO_RESOURCE)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        ConfigAccess.Validation same = new RunningConfigAccess(demo).validate(text, "demo.yaml");

        assertThat(demo.config().http().port()).isEqualTo(9191);
        assertThat(same.diff()).as("--http-port wins over the file, now and on apply").isEmpty();
    }
}
