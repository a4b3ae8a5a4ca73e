package io.qubiq.sink.mqtt;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.message.connect.connack.Mqtt5ConnAck;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import io.qubiq.core.error.GatewayException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link PublishingClient} over the HiveMQ MQTT 5 client: clean start, session expiry 0, no
 * outgoing topic aliases (so {@link PacketSize} is exact). The broker's maximum packet size comes
 * from the CONNACK. Thread-safe.
 */
final class Mqtt5PublishingClient extends PublishingClient {

    private final Mqtt5AsyncClient client;
    private final int keepAliveS;

    /** @param builder carries the address, TLS and credentials ({@link PublishingClients}) */
    Mqtt5PublishingClient(Mqtt5ClientBuilder builder, MqttSinkConfig config, String broker, AtomicInteger disconnects) {
        super(broker, disconnects);
        this.client = builder.buildAsync();
        this.keepAliveS = config.keepAliveS();
    }

    @Override
    CompletableFuture<Connected> sendConnect() {
        return client.connectWith()
                .cleanStart(true)
                .sessionExpiryInterval(0)
                .keepAlive(keepAliveS)
                .restrictions().sendTopicAliasMaximum(0).applyRestrictions()
                .send()
                .thenApply(Mqtt5PublishingClient::connected);
    }

    private static Connected connected(Mqtt5ConnAck connAck) {
        int announced = connAck.getRestrictions().getMaximumPacketSize();
        return new Connected(Math.min(announced, PacketSize.PROTOCOL_MAXIMUM), "announced in CONNACK");
    }

    @Override
    GatewayException connectFailure(Throwable error) {
        Throwable e = FailureClassifier.unwrap(error);
        if (e instanceof Mqtt5ConnAckException refused) {
            var code = refused.getMqttMessage().getReasonCode();
            String name = code + refused.getMqttMessage().getReasonString().map(reason -> ": " + reason).orElse("");
            return FailureClassifier.connectRefused(code.getCode(), name, true, broker, e);
        }
        return FailureClassifier.connectFailed(e, broker);
    }

    @Override
    CompletableFuture<?> send(MqttMessage message) {
        return client.publish(Mqtt5Publish.builder()
                .topic(message.topic())
                .qos(MqttQos.fromCode(message.qos()))
                .retain(message.retain())
                .payload(message.payloadBytes())
                .build());
    }

    @Override
    boolean connected() {
        return client.getState().isConnected();
    }

    @Override
    CompletableFuture<Void> sendDisconnect() {
        return client.disconnect();
    }
}
