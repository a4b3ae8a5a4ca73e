package io.qubiq.app.devices;

import io.qubiq.app.config.DeviceConfig;
import io.qubiq.connector.mqtt.MqttConnector;
import io.qubiq.connector.mqtt.MqttProbe;
import io.qubiq.connector.mqtt.MqttSubscriptionConfig;
import io.qubiq.connector.mqtt.MqttWritableTagConfig;
import io.qubiq.core.connector.DeviceConnector;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.connector.ProbeResult;
import java.time.Duration;
import java.util.List;

/**
 * MQTT device connections: {@code devices.<id>.mqtt:}, read by the connector of
 * {@code io.qubiq.connector.mqtt}. Topics map to tags at run time, so what the configuration
 * declares up front are the writable tags; a subscription with a wildcard ({@code +}, {@code #})
 * stands for topics not known in advance. Its messages can trigger pipelines ({@code trigger.mqtt}).
 */
final class MqttDeviceKind implements DeviceKind<DeviceConfig.Mqtt> {

    @Override
    public Class<DeviceConfig.Mqtt> configType() {
        return DeviceConfig.Mqtt.class;
    }

    @Override
    public String title() {
        return "MQTT";
    }

    @Override
    public DeviceConnector connector(String id, DeviceConfig.Mqtt config, Context context) {
        return new MqttConnector(context.gatewayId(), id, config.mqtt(), context.clock(), context.events());
    }

    /** Probed as {@code <client id>-probe}, so the running connection keeps its session. */
    @Override
    public ProbeResult probe(String id, DeviceConfig.Mqtt config, Context context, Duration timeout) {
        return MqttProbe.probe(config.mqtt().effectiveClientId(context.gatewayId(), id), config.mqtt(), timeout);
    }

    @Override
    public List<String> declaredTags(DeviceConfig.Mqtt config) {
        return config.mqtt().writableTags().stream().map(MqttWritableTagConfig::tag).toList();
    }

    @Override
    public TagEstimate tagEstimate(DeviceConfig.Mqtt config) {
        long wildcards = config.mqtt().subscriptions().stream().filter(MqttDeviceKind::wildcard).count();
        return new TagEstimate(config.mqtt().subscriptions().size() - wildcards, wildcards);
    }

    @Override
    public boolean triggersPipelines() {
        return true;
    }

    @Override
    public String docs() {
        return "docs/connectors/mqtt.md";
    }

    private static boolean wildcard(MqttSubscriptionConfig subscription) {
        return subscription.topic().contains("+") || subscription.topic().contains("#");
    }
}
