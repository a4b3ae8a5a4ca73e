package io.qubiq.connector.mqtt;

import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3ClientBuilder;
import com.hivemq.client.mqtt.mqtt3.lifecycle.Mqtt3ClientConnectedContext;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.Mqtt3Subscribe;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.Mqtt3Subscription;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** {@link BrokerClient} over the HiveMQ MQTT 3.1.1 client. Thread-safe. */
final class Mqtt3BrokerClient implements BrokerClient {

    private final Mqtt3AsyncClient client;
    private final MqttConnectionConfig config;
    private final Events events;
    private final InboundFlow inbound;

    /** @param builder carries the address, TLS and credentials ({@link BrokerClients}) */
    Mqtt3BrokerClient(Mqtt3ClientBuilder builder, MqttConnectionConfig config, Events events) {
        this.config = config;
        this.events = events;
        this.inbound = new InboundFlow(events);
        this.client = builder
                .addConnectedListener(context -> onConnected(((Mqtt3ClientConnectedContext) context).getConnAck().isSessionPresent()))
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
                .cleanSession(config.cleanSession())
                .keepAlive(config.keepAliveS())
                .send()
                .thenApply(connAck -> connAck.isSessionPresent());
    }

    @Override
    public CompletableFuture<List<Optional<String>>> subscribe(List<Filter> filters) {
        Mqtt3Subscribe subscribe = Mqtt3Subscribe.builder()
                .addSubscriptions(filters.stream().map(f -> Mqtt3Subscription.builder()
                        .topicFilter(f.topic()).qos(MqttQos.fromCode(f.qos())).build()))
                .build();
        return client.subscribe(subscribe).thenApply(subAck -> subAck.getReturnCodes().stream()
                .map(code -> code.isError() ? Optional.of("the broker refused the subscription: " + code)
                        : Optional.<String>empty())
                .toList());
    }

    @Override
    public CompletableFuture<Optional<String>> publish(String topic, byte[] payload, int qos, boolean retain) {
        return client.publishWith().topic(topic).qos(MqttQos.fromCode(qos)).retain(retain).payload(payload).send()
                .thenApply(sent -> Optional.empty());
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
