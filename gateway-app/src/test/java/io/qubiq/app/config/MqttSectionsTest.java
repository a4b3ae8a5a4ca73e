package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.config.ConfigLoader;
import io.qubiq.connector.mqtt.MqttConnectionConfig;
import io.qubiq.mqtt.BrokerSettings;
import io.qubiq.mqtt.MqttProtocol;
import io.qubiq.sink.mqtt.MqttSinkConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The two MQTT sections of a gateway file, {@code devices.<id>.mqtt} and {@code outbound.<id>.mqtt},
 * bind to the configuration records that hand their broker to the shared MQTT client code, with the
 * keys and defaults they always had.
 */
class MqttSectionsTest {

    static final Path REPO = Path.of(System.getProperty("qubiq.repo", ".."));

    @Test
    void theShippedExampleKeepsEachSidesProtocolDefaultWhereItLeavesProtocolOut() throws Exception {
        GatewayConfig config = ConfigLoader.load(REPO.resolve("config/pipelines-example.yaml"), GatewayConfig.class,
                Map.of());
        MqttConnectionConfig device = ((DeviceConfig.Mqtt) config.devices().get("line-broker")).mqtt();
        MqttSinkConfig outbound = ((OutboundConfig.Mqtt) config.outbound().get("enterprise-broker")).mqtt();

        assertThat(device.broker()).isEqualTo(new BrokerSettings("line-broker.plant.local", 1883, false, true,
                Optional.empty(), Optional.empty(), MqttProtocol.MQTT_3_1_1));
        assertThat(device.keepAliveS()).isEqualTo(30);
        assertThat(outbound.broker()).isEqualTo(new BrokerSettings("broker.corp.local", 8883, true, true,
                Optional.of("line1-gateway"), Optional.of("change-me"), MqttProtocol.MQTT_5));
        assertThat(outbound.keepAliveS()).isEqualTo(60);
    }

    @Test
    void bothSectionsSpellTheProtocolVersionsTheSameWay() throws Exception {
        GatewayConfig config = ConfigLoader.parse("gateway.yaml", """
                devices:
                  old-broker:
                    mqtt:
                      host: 10.0.0.7
                      protocol: mqtt_5
                      subscriptions: []
                outbound:
                  old-cloud:
                    mqtt:
                      host: 10.0.0.8
                      protocol: mqtt_3_1_1
                """, GatewayConfig.class, Map.of());

        assertThat(((DeviceConfig.Mqtt) config.devices().get("old-broker")).mqtt().protocol()).isEqualTo(MqttProtocol.MQTT_5);
        assertThat(((OutboundConfig.Mqtt) config.outbound().get("old-cloud")).mqtt().protocol())
                .isEqualTo(MqttProtocol.MQTT_3_1_1);
    }
}
