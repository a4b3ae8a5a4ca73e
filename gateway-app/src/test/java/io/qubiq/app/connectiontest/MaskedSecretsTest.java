package io.qubiq.app.connectiontest;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.app.config.DeviceConfig;
import io.qubiq.config.ConfigTree;
import io.qubiq.connector.mqtt.MqttConnectionConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Settings sent back by the console get the running connection's secrets in place of the masks. */
class MaskedSecretsTest {

    @Test
    void aMaskedMqttPasswordIsTakenFromTheRunningConnectionAtTheKeyTheFileWrites() {
        DeviceConfig running = new DeviceConfig.Mqtt(MqttConnectionConfig.of("broker.local", 1883, List.of())
                .withCredentials("gw", "hunter2"), true);
        Map<String, Object> sent = Map.of("mqtt", Map.of("host", "broker.local", "username", "gw",
                "password", ConfigTree.MASK, "subscriptions", List.of()), "enabled", true);

        Object restored = MaskedSecrets.restore(sent, running);

        assertThat(restored).isEqualTo(Map.of("mqtt", Map.of("host", "broker.local", "username", "gw",
                "password", "hunter2", "subscriptions", List.of()), "enabled", true));
        assertThat(MaskedSecrets.masked(restored, "devices.line")).isEqualTo(Optional.empty());
    }

    @Test
    void aMaskWithNothingRunningAtItsKeyStaysAndIsNamed() {
        DeviceConfig running = new DeviceConfig.Mqtt(MqttConnectionConfig.of("broker.local", 1883, List.of()), true);
        Map<String, Object> sent = Map.of("mqtt", Map.of("host", "broker.local", "password", ConfigTree.MASK));

        Object restored = MaskedSecrets.restore(sent, running);

        assertThat(MaskedSecrets.masked(restored, "devices.line")).contains("devices.line.mqtt.password");
    }
}
