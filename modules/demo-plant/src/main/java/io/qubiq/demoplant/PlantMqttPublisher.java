package io.qubiq.demoplant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.message.publish.Mqtt5Publish;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plant's MQTT devices: one HiveMQ client (MQTT 5, client id {@value #CLIENT_ID}) connected to
 * the plant's broker, signed in with the plant's {@link BrokerCredentials}. {@link #publish} sends every {@link PlantTopic} as a retained QoS 0 JSON
 * message with value, timestamp (ISO-8601), quality ({@code good}) and unit, so a subscriber that
 * arrives later gets the last reading at once. The client subscribes to the command topics and
 * applies a valid write to the model at once, then publishes the topic's new value; an invalid one
 * (not a number, outside 0 to 5 m) is logged at WARN and changes nothing.
 *
 * <p>The client reconnects on its own should the connection drop, and subscribes again on every
 * connection (its session is clean). Threading: {@link #publish} is called by the plant's tick
 * thread, commands arrive on the client's threads (the model is thread-safe); start and stop are
 * called by {@link SimulatedPlant} under its lock.
 */
final class PlantMqttPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(PlantMqttPublisher.class);
    static final String CLIENT_ID = "qubiq-demo-plant";
    private static final long TIMEOUT_S = 10;

    private final PlantModel model;
    private final int port;
    private final BrokerCredentials credentials;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, PlantTopic> byCommandTopic = Arrays.stream(PlantTopic.values())
            .filter(topic -> topic.commandTopic().isPresent())
            .collect(Collectors.toUnmodifiableMap(topic -> topic.commandTopic().get(), Function.identity()));
    private volatile Mqtt5AsyncClient client;
    private volatile boolean subscribedOnce;

    PlantMqttPublisher(PlantModel model, int port, BrokerCredentials credentials, Clock clock) {
        this.model = model;
        this.port = port;
        this.credentials = credentials;
        this.clock = clock;
    }

    /** Connects and subscribes to the command topics; returns once the broker granted them. */
    void start() throws Exception {
        Mqtt5AsyncClient created = MqttClient.builder()
                .useMqttVersion5()
                .identifier(CLIENT_ID)
                .serverHost(LoopbackPorts.HOST)
                .serverPort(port)
                .simpleAuth().username(credentials.username())
                .password(credentials.password().getBytes(StandardCharsets.UTF_8)).applySimpleAuth()
                .automaticReconnect().initialDelay(100, TimeUnit.MILLISECONDS).maxDelay(2, TimeUnit.SECONDS)
                .applyAutomaticReconnect()
                .addConnectedListener(context -> {
                    if (subscribedOnce) {
                        subscribeCommands(); // a reconnect: the clean session lost the subscriptions
                    }
                })
                .buildAsync();
        client = created;
        try {
            created.connectWith().cleanStart(true).send().get(TIMEOUT_S, TimeUnit.SECONDS);
            subscribeCommands().get(TIMEOUT_S, TimeUnit.SECONDS);
            subscribedOnce = true;
        } catch (Exception e) {
            stop();
            throw e;
        }
    }

    private CompletableFuture<?> subscribeCommands() {
        Mqtt5AsyncClient current = client;
        CompletableFuture<?> all = CompletableFuture.completedFuture(null);
        for (String topic : byCommandTopic.keySet()) {
            var granted = current.subscribeWith().topicFilter(topic).qos(MqttQos.AT_LEAST_ONCE)
                    .callback(this::onCommand).send()
                    .whenComplete((subAck, error) -> {
                        if (error != null) {
                            LOG.warn("Demo plant: cannot subscribe to {}: {}", topic, error.toString());
                        }
                    });
            all = CompletableFuture.allOf(all, granted);
        }
        return all;
    }

    /** Publishes every topic's value in {@code state}, sampled at {@code time}; skipped while disconnected. */
    void publish(PlantState state, Instant time) {
        for (PlantTopic topic : PlantTopic.values()) {
            publish(topic, topic.valueIn(state), time);
        }
    }

    private void publish(PlantTopic topic, double value, Instant time) {
        Mqtt5AsyncClient current = client;
        if (current == null || !current.getState().isConnected()) {
            return;
        }
        ObjectNode message = json.createObjectNode()
                .put("value", value)
                .put("timestamp", time.toString())
                .put("quality", "good")
                .put("unit", topic.unit());
        current.publishWith().topic(topic.topic()).qos(MqttQos.AT_MOST_ONCE).retain(true)
                .payload(message.toString().getBytes(StandardCharsets.UTF_8)).send();
    }

    private void onCommand(Mqtt5Publish publish) {
        String topicName = publish.getTopic().toString();
        PlantTopic topic = byCommandTopic.get(topicName);
        if (topic != PlantTopic.REMOTE_LEVEL_SETPOINT) {
            return; // the only writable topic; a filter matches nothing else
        }
        String text = new String(publish.getPayloadAsBytes(), StandardCharsets.UTF_8).strip();
        Optional<Double> metres = number(text);
        if (metres.isEmpty() || !PlantModel.validLevelSetpoint(metres.get())) {
            LOG.warn("Demo plant: refused the command on {}: \"{}\" is not a level setpoint between 0 and {} m"
                    + " (send a number, or JSON with a numeric \"value\")", topicName, shorten(text), PlantModel.TANK_HEIGHT_M);
            return;
        }
        model.setLevelSetpoint(metres.get());
        LOG.info("Demo plant: level setpoint set to {} m through MQTT", metres.get());
        publish(topic, metres.get(), clock.instant());
    }

    /** The number in a plain ({@code 3.5}) or JSON ({@code {"value": 3.5}}) payload. */
    private Optional<Double> number(String text) {
        try {
            if (text.startsWith("{")) {
                JsonNode value = json.readTree(text).path("value");
                return value.isNumber() ? Optional.of(value.doubleValue()) : Optional.empty();
            }
            return Optional.of(Double.parseDouble(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String shorten(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    /** Disconnects (bounded); the broker keeps the retained messages until it stops. */
    void stop() {
        Mqtt5AsyncClient current = client;
        client = null;
        if (current == null) {
            return;
        }
        try {
            current.disconnect().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("Demo plant: the MQTT client did not disconnect cleanly: {}", e.toString());
        }
    }
}
