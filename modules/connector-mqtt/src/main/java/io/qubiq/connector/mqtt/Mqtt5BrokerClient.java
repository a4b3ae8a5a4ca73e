package io.qubiq.connector.mqtt;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5ClientBuilder;
import com.hivemq.client.mqtt.mqtt5.lifecycle.Mqtt5ClientConnectedContext;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5PublishResult;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscribe;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.Mqtt5Subscription;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** {@link BrokerClient} over the HiveMQ MQTT 5 client. Thread-safe. */
final class Mqtt5BrokerClient implements BrokerClient {

    private final Mqtt5AsyncClient client;
    private final MqttConnectionConfig config;
    private final Events events;
    private final InboundFlow inbound;

    /** @param builder carries the address, TLS and credentials ({@link BrokerClients}) */
    Mqtt5BrokerClient(Mqtt5ClientBuilder builder, MqttConnectionConfig config, Events events) {
        this.config = config;
        this.events = events;
        this.inbound = new InboundFlow(events);
        this.client = builder
                .addConnectedListener(context -> onConnected(((Mqtt5ClientConnectedContext) context).getConnAck().isSessionPresent()))
                .buildAsync();
        listenForMessages();
    }

    /** See {@link InboundFlow}: a new flow when the client ended its session, then the connector hears. */
    private void onConnected(boolean sessionPresent) {
        if (inbound.needsNewFlow(sessionPresent)) {
            listenForMessages();
        }
        events.connected(sessionPresent);
    }

    private void listenForMessages() {
        int flow = inbound.open();
        client.publishes(MqttGlobalPublishFilter.ALL, publish -> inbound.deliver(flow, publish.getTopic().toString(),
                        publish.getPayloadAsBytes(), publish.getQos().getCode(), publish::acknowledge),
                InboundFlow.INLINE, true);
    }

    @Override
    public CompletableFuture<Boolean> connect() {
        return client.connectWith()
                .cleanStart(config.cleanSession())
                .sessionExpiryInterval(config.cleanSession() ? 0 : config.sessionExpiryS())
                .keepAlive(config.keepAliveS())
                .send()
                .thenApply(connAck -> connAck.isSessionPresent());
    }

    @Override
    public CompletableFuture<List<Optional<String>>> subscribe(List<Filter> filters) {
        Mqtt5Subscribe subscribe = Mqtt5Subscribe.builder()
                .addSubscriptions(filters.stream().map(f -> Mqtt5Subscription.builder()
                        .topicFilter(f.topic()).qos(MqttQos.fromCode(f.qos())).build()))
                .build();
        return client.subscribe(subscribe).thenApply(subAck -> subAck.getReasonCodes().stream()
                .map(code -> code.isError() ? Optional.of(describe(code)) : Optional.<String>empty())
                .toList());
    }

    private static String describe(Mqtt5SubAckReasonCode code) {
        return "the broker refused the subscription: " + code;
    }

    @Override
    public CompletableFuture<Optional<String>> publish(String topic, byte[] payload, int qos, boolean retain) {
        return client.publishWith().topic(topic).qos(MqttQos.fromCode(qos)).retain(retain).payload(payload).send()
                .thenApply(Mqtt5BrokerClient::refusal);
    }

    private static Optional<String> refusal(Mqtt5PublishResult result) {
        if (result instanceof Mqtt5PublishResult.Mqtt5Qos1Result qos1 && qos1.getPubAck().getReasonCode().isError()) {
            return Optional.of(qos1.getPubAck().getReasonCode() + qos1.getPubAck().getReasonString()
                    .map(reason -> " (" + reason + ")").orElse(""));
        }
        if (result instanceof Mqtt5PublishResult.Mqtt5Qos2Result qos2 && qos2.getPubRec().getReasonCode().isError()) {
            return Optional.of(qos2.getPubRec().getReasonCode() + qos2.getPubRec().getReasonString()
                    .map(reason -> " (" + reason + ")").orElse(""));
        }
        return result.getError().map(error -> error.getClass().getSimpleName() + ": " + error.getMessage());
    }

    @Override
    public boolean connected() {
        return client.getState().isConnected();
    }

    @Override
    public CompletableFuture<Void> disconnect() {
        return client.disconnect();
    }
}
