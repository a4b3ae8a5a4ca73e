package io.qubiq.connector.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/** A plain MQTT 5 client for tests: publishes device messages and records what the connector publishes. */
final class TestClient implements AutoCloseable {

    /** One received message. */
    record Received(String topic, String payload, int qos, boolean retain) {
    }

    private final Mqtt5BlockingClient client;
    private final List<Received> received = new CopyOnWriteArrayList<>();

    TestClient(String host, int port) {
        client = MqttClient.builder().useMqttVersion5().identifier("test-" + UUID.randomUUID())
                .serverHost(host).serverPort(port).buildBlocking();
        client.connect();
        client.toAsync().publishes(com.hivemq.client.mqtt.MqttGlobalPublishFilter.ALL, p -> received.add(
                new Received(p.getTopic().toString(), new String(p.getPayloadAsBytes(), StandardCharsets.UTF_8),
                        p.getQos().getCode(), p.isRetain())));
    }

    void publish(String topic, String payload) {
        publish(topic, payload, 1, false);
    }

    void publish(String topic, String payload, int qos, boolean retain) {
        client.publishWith().topic(topic).qos(MqttQos.fromCode(qos)).retain(retain)
                .payload(payload.getBytes(StandardCharsets.UTF_8)).send();
    }

    void subscribe(String filter) {
        client.subscribeWith().topicFilter(filter).qos(MqttQos.AT_LEAST_ONCE).send();
    }

    List<Received> received() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        if (client.getState().isConnected()) {
            client.disconnect();
        }
    }
}
