package io.qubiq.core.connector;

import io.qubiq.core.config.Variant;
import io.qubiq.core.event.EventPublisher;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * One kind of device connection (OPC UA, MQTT), described once: the configuration section that
 * selects it, how to build its {@link DeviceConnector}, the tags its configuration declares, what
 * it costs in memory, whether its messages can trigger pipelines, and its documentation. Generic
 * wiring (the gateway's start-up, the configuration checks, the heap recommendation) asks the kind
 * and never tests a kind's name or a connector's class.
 *
 * <p><b>Where this lives, and why.</b> Its signature names only core vocabulary: the connector
 * contract, the event publisher and JDK types, so it sits beside {@link DeviceConnector} and names no
 * driver. The record under {@code devices.<id>} is the application's own configuration, so it is the
 * type parameter {@code C}: nothing of gateway-app leaks down. Implementations need a driver (their
 * connector module), so they live in gateway-app ({@code io.qubiq.app.devices}), whose
 * {@code DeviceKinds} is the one list of every kind. Adding a kind is its connector module, its
 * configuration variant, its kind class and one line in that list.
 *
 * <p>Implementations are stateless and safe to share between threads.
 *
 * @param <C> the record under {@code devices.<id>} that this kind's section selects
 */
public interface DeviceKind<C> {

    /** The record under {@code devices.<id>}; its {@code @Variant} is the section key and this kind's name. */
    Class<C> configType();

    /** The section key that selects this kind ({@code opcua} for {@code devices.<id>.opcua:}). */
    default String name() {
        return configType().getAnnotation(Variant.class).value();
    }

    /** The kind's name for people, in log lines and reports ({@code OPC UA}). */
    String title();

    /** The connector of connection {@code id}; nothing is opened or started yet. */
    DeviceConnector connector(String id, C config, Context context);

    /**
     * The tag paths, as written, that the configuration declares for this connection and so that it
     * owns: a write to one of them goes to this connection, and no other connection may declare it.
     * Tags a connection only learns at run time (values on MQTT topics) are not among them.
     */
    List<String> declaredTags(C config);

    /** How many tags the connection will hold, for the heap recommendation. */
    TagEstimate tagEstimate(C config);

    /**
     * Whether the connection's messages can trigger a pipeline ({@code trigger.mqtt.connection}
     * names it). None by default.
     */
    default boolean triggersPipelines() {
        return false;
    }

    /**
     * Probes the settings {@code config} of connection {@code id} now, with a client of its own that
     * is closed before this returns: nothing is added, started or subscribed, and a running connector
     * of the same id is left alone. Answers within about {@code timeout}; never throws for a failure of
     * the server or the network, which the result names.
     */
    ProbeResult probe(String id, C config, Context context, java.time.Duration timeout);

    /** The user documentation of this kind, relative to the repository root. */
    String docs();

    /**
     * What a connector may need from the gateway around it.
     *
     * @param gatewayId the gateway's name as it goes into client ids: lower case, runs of other characters as -
     * @param dataDir the data directory; relative paths in a connection's configuration resolve against it
     * @param clock the wall clock that stamps values
     * @param events where a connector reports losses and alarms
     */
    record Context(String gatewayId, Path dataDir, Clock clock, EventPublisher events) {
    }

    /**
     * The tags of one connection, estimated up front.
     *
     * @param tags the tags known from the configuration
     * @param wildcards subscriptions whose topics are not known until messages arrive; the caller
     *                  decides how many tags each stands for
     */
    record TagEstimate(long tags, long wildcards) {
    }
}
