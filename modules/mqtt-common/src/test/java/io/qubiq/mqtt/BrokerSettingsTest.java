package io.qubiq.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.config.ConfigChecked.Violation;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrokerSettingsTest {

    private static BrokerSettings broker(String host, boolean tls, Optional<String> user, Optional<String> password,
            MqttProtocol protocol) {
        return new BrokerSettings(host, 1883, tls, true, user, password, protocol);
    }

    @Test
    void theAddressNamesTheSchemeHostAndPort() {
        assertThat(broker("10.0.0.5", false, Optional.empty(), Optional.empty(), MqttProtocol.MQTT_5).address())
                .isEqualTo("mqtt://10.0.0.5:1883");
        assertThat(broker("broker", true, Optional.empty(), Optional.empty(), MqttProtocol.MQTT_5).address())
                .isEqualTo("mqtts://broker:1883");
    }

    @Test
    void aConsistentBrokerHasNoViolations() {
        assertThat(broker("broker", false, Optional.of("u"), Optional.of("p"), MqttProtocol.MQTT_3_1_1).violations())
                .isEmpty();
        assertThat(broker("broker", false, Optional.of("u"), Optional.empty(), MqttProtocol.MQTT_5).violations())
                .isEmpty();
    }

    @Test
    void anEmptyHostNoProtocolAndAPasswordWithoutUserAreReportedTogetherInThatOrder() {
        assertThat(broker(" ", false, Optional.empty(), Optional.of("alone"), null).violations()).containsExactly(
                new Violation("host", "must not be empty"),
                new Violation("protocol", "expected mqtt_5 or mqtt_3_1_1"),
                new Violation("password", "needs a username (MQTT sends no password without one)"));
    }

    @Test
    void printedSettingsNeverShowThePassword() {
        // catches: a record's generated toString putting the broker password into a log line
        BrokerSettings settings = new BrokerSettings("broker.local", 8883, true, true, Optional.of("gw"),
                Optional.of("hunter2"), MqttProtocol.MQTT_5);

        assertThat(settings.toString()).doesNotContain("hunter2").contains("mqtts://broker.local:8883", "gw", "***");
    }
}
