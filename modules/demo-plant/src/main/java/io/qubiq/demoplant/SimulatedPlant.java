package io.qubiq.demoplant;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.Periodic;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's plant: a {@link PlantModel} stepped every {@code tick_ms}, served by an OPC UA server
 * (Eclipse Milo) and published to an embedded MQTT broker (HiveMQ CE), both on 127.0.0.1, so
 * {@code qubiq demo} has two live devices to read without any hardware.
 *
 * <ul>
 *   <li><b>OPC UA</b> ({@link PlantOpcUaServer}): {@code opc.tcp://127.0.0.1:<opcua_port>/demo-plant},
 *       SecurityPolicy None, anonymous. Every tick each variable ({@link #nodes()}) gets the new
 *       value with the tick's time as source timestamp. Writes of the level setpoint and pump
 *       permission change the process from the next tick; writes of other variables are refused
 *       (Bad_NotWritable).
 *   <li><b>MQTT</b> ({@link PlantBroker}, {@link PlantMqttPublisher}): a broker on
 *       {@code tcp://127.0.0.1:<mqtt_port>} that admits only the plant's generated {@link
 *       #mqttCredentials()}, to which the plant's energy meter, ambient sensor and
 *       remote setpoint publish a retained JSON message per topic ({@link #topics()}) every
 *       {@code mqtt_publish_interval_ms}; the remote setpoint's command topic writes the level
 *       setpoint.
 * </ul>
 *
 * <p>{@link #start} fails with a {@link ConfigurationException} naming the key when a port is
 * taken, and leaves nothing running. Ports configured as 0 are picked when the plant first starts
 * and kept. {@link #stop} closes both listening sockets before it returns, so the ports can be
 * bound again at once; {@link #start} after {@link #stop} serves again on the same ports, with the
 * model where it was.
 *
 * <p>Threading: start and stop are synchronized. One daemon thread ({@code qubiq-demo-plant})
 * steps the model and shows and publishes its state; Milo's and the MQTT client's threads apply
 * writes to the (thread-safe) model. A write that lands while a tick is being shown can be
 * overwritten on the OPC UA node by that tick's older setpoint; the next tick shows the written
 * value again.
 */
public final class SimulatedPlant implements Component {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedPlant.class);
    private static final long STOP_TIMEOUT_S = 5;

    /** The MQTT topic filter that matches every topic the plant publishes (not its command topics). */
    public static final String MQTT_TOPIC_FILTER = PlantTopic.FILTER;
    /** The tag template for {@link #MQTT_TOPIC_FILTER}: {@code demo-plant/meter/power} is tag {@code demo/meter/power}. */
    public static final String MQTT_TAG_TEMPLATE = PlantTopic.TAG_TEMPLATE;
    /** JSON paths of the value, source timestamp and quality in every MQTT message. */
    public static final String MQTT_VALUE_PATH = "$.value";
    public static final String MQTT_TIMESTAMP_PATH = "$.timestamp";
    public static final String MQTT_QUALITY_PATH = "$.quality";

    private final DemoPlantConfig config;
    private final Clock clock;
    private final PlantModel model;
    private final BrokerCredentials brokerCredentials = BrokerCredentials.generate();
    private int opcuaPort;
    private int mqttPort;
    private PlantOpcUaServer opcua;
    private PlantBroker broker;
    private PlantMqttPublisher publisher;
    private ScheduledExecutorService ticker;

    public SimulatedPlant(DemoPlantConfig config) {
        this(config, Clock.systemUTC());
    }

    /** A plant whose source timestamps come from {@code clock}. */
    public SimulatedPlant(DemoPlantConfig config, Clock clock) {
        this(config, clock, new PlantModel(config.seed(), config.tick()));
    }

    /**
     * A plant stepping {@code model} every {@code tick_ms}; a model whose own tick is longer runs
     * the process faster than real time (tests).
     */
    SimulatedPlant(DemoPlantConfig config, Clock clock, PlantModel model) {
        this.config = config;
        this.clock = clock;
        this.model = model;
        this.opcuaPort = config.opcuaPort();
        this.mqttPort = config.mqttPort();
    }

    /** The plant's OPC UA variables: node id, suggested tag path, types, whether writable, unit and meaning. */
    public static List<NodeInfo> nodes() {
        return Arrays.stream(PlantVariable.values()).map(PlantVariable::info).toList();
    }

    /** The plant's MQTT topics: topic, tag path under {@link #MQTT_TAG_TEMPLATE}, command topic, unit and meaning. */
    public static List<TopicInfo> topics() {
        return Arrays.stream(PlantTopic.values()).map(PlantTopic::info).toList();
    }

    /** The namespace URI of the plant's variables ({@code ns=2} in {@link #nodes()}). */
    public static String namespaceUri() {
        return PlantNamespace.URI;
    }

    @Override
    public String name() {
        return "demo-plant";
    }

    @Override
    public synchronized void start() throws ConfigurationException {
        if (ticker != null) {
            return;
        }
        if (opcuaPort == 0) {
            opcuaPort = LoopbackPorts.pick();
        }
        if (mqttPort == 0) {
            mqttPort = LoopbackPorts.pick();
        }
        PlantOpcUaServer server = new PlantOpcUaServer(model, opcuaPort);
        PlantBroker mqttBroker = new PlantBroker(mqttPort, brokerCredentials);
        PlantMqttPublisher mqttPublisher = new PlantMqttPublisher(model, mqttPort, brokerCredentials, clock);
        server.start();
        try {
            mqttBroker.start();
            try {
                mqttPublisher.start();
            } catch (Exception e) {
                mqttBroker.stop();
                throw new IllegalStateException("the demo plant's MQTT publisher could not connect to its broker on"
                        + " port " + mqttPort, e);
            }
        } catch (ConfigurationException | RuntimeException e) {
            server.stop();
            throw e;
        }
        opcua = server;
        broker = mqttBroker;
        publisher = mqttPublisher;
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "qubiq-demo-plant");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(Periodic.guarded(() -> tick(server, mqttPublisher), e -> LOG.error("Demo plant tick failed: {}", e.toString(), e)), config.tickMs(), config.tickMs(), TimeUnit.MILLISECONDS);
        publisher.publish(model.state(), clock.instant()); // retained: a subscriber has values before the first tick
    }

    @Override
    public synchronized void stop() {
        if (ticker == null) {
            return;
        }
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(STOP_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ticker = null;
        publisher.stop();
        broker.stop();
        opcua.stop();
        publisher = null;
        broker = null;
        opcua = null;
        LOG.info("Demo plant stopped");
    }

    /**
     * The endpoint URL OPC UA clients connect to, such as {@code opc.tcp://127.0.0.1:4840/demo-plant}.
     *
     * @throws IllegalStateException when the port is 0 and the plant never started, so it is not chosen yet
     */
    public synchronized String endpointUrl() {
        if (opcuaPort == 0) {
            throw new IllegalStateException("the demo plant picks its OPC UA port when it starts; start it first");
        }
        return "opc.tcp://" + LoopbackPorts.HOST + ":" + opcuaPort + PlantOpcUaServer.PATH;
    }

    /**
     * The user name and password the plant's MQTT broker admits, generated for this plant (so for this run
     * of the demo) and kept in memory only; every other client, anonymous ones included, is refused.
     */
    public BrokerCredentials mqttCredentials() {
        return brokerCredentials;
    }

    /** The host of the plant's MQTT broker: {@code 127.0.0.1}. */
    public String mqttHost() {
        return LoopbackPorts.HOST;
    }

    /**
     * The port of the plant's MQTT broker.
     *
     * @throws IllegalStateException when the port is 0 and the plant never started, so it is not chosen yet
     */
    public synchronized int mqttPort() {
        if (mqttPort == 0) {
            throw new IllegalStateException("the demo plant picks its MQTT port when it starts; start it first");
        }
        return mqttPort;
    }

    /** The plant as its instruments show it after the latest tick. */
    public PlantState state() {
        return model.state();
    }

    public synchronized boolean isRunning() {
        return ticker != null;
    }

    private void tick(PlantOpcUaServer server, PlantMqttPublisher mqtt) {
        try {
            PlantState state = model.step();
            Instant now = clock.instant();
            server.show(state, now);
            if (state.tick() % config.ticksPerPublish() == 0) {
                mqtt.publish(state, now);
            }
        } catch (RuntimeException e) {
            // An escaping exception would cancel the schedule and freeze the plant.
            LOG.error("Demo plant: a simulation tick failed (a bug)", e);
        }
    }
}
