package io.qubiq.sink.mqtt;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3ClientBuilder;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3ConnAckException;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;
import io.qubiq.core.error.GatewayException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link PublishingClient} over the HiveMQ MQTT 3.1.1 client: clean session. MQTT 3.1.1 has no
 * reason codes and no maximum packet size in CONNACK: a broker that refuses a publish either
 * acknowledges and drops it or closes the connection, and only a configured {@code max_packet_bytes}
 * keeps an oversized message from being sent. Thread-safe.
 */
final class Mqtt3PublishingClient extends PublishingClient {

    private final Mqtt3AsyncClient client;
    private final int keepAliveS;

    /** @param builder carries the address, TLS and credentials ({@link PublishingClients}) */
    Mqtt3PublishingClient(Mqtt3ClientBuilder builder, MqttSinkConfig config, String broker, AtomicInteger disconnects) {
        super(broker, disconnects);
        this.client = builder.buildAsync();
        this.keepAliveS = config.keepAliveS();
    }

    @Override
    CompletableFuture<Connected> sendConnect() {
        return client.connectWith()
                .cleanSession(true)
                .keepAlive(keepAliveS)
                .send()
                .thenApply(connAck -> new Connected(PacketSize.PROTOCOL_MAXIMUM, "MQTT's own limit"));
    }

    @Override
    GatewayException connectFailure(Throwable error) {
        Throwable e = FailureClassifier.unwrap(error);
        if (e instanceof Mqtt3ConnAckException refused) {
            var code = refused.getMqttMessage().getReturnCode();
            return FailureClassifier.connectRefused(code.getCode(), code.toString(), false, broker, e);
        }
        return FailureClassifier.connectFailed(e, broker);
    }

    @Override
    CompletableFuture<?> send(MqttMessage message) {
        return client.publish(Mqtt3Publish.builder()
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
