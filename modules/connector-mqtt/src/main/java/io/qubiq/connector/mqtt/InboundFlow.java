package io.qubiq.connector.mqtt;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How both protocol clients hand incoming messages to the connector and acknowledge them: the one
 * place that decides when the broker hears PUBACK (QoS 1) or PUBREC (QoS 2).
 *
 * <p><b>Acknowledged once taken.</b> The HiveMQ client is asked for manual acknowledgement, and a
 * message is acknowledged only after {@link BrokerClient.Events#message} returned {@code true}: the
 * value was accepted by the tag bus (queued for every subscriber), or the message was counted as
 * malformed or unmatched. A message the connector did not take (it is closing, or the tag bus is
 * stopped) stays unacknowledged, so the broker redelivers it to the next connection of the
 * persistent session. Nothing is acknowledged before the gateway holds the value; what the tag bus
 * does with it afterwards (historian, pipelines, buffers) is not waited for (docs/connectors/mqtt.md,
 * known gap).
 *
 * <p><b>Why on the client's own thread (issue 20, the disconnect storm).</b> Messages are delivered
 * inline on the client's Netty thread ({@link #INLINE}) rather than through the client's default
 * application scheduler. What a packet capture (mosquitto 2.0.11 with {@code log_type all}, 2,000
 * messages/s over 200 topics, a broker restart) showed:
 * <ul>
 *   <li>The broker breaks flow control: against a client that announced a Receive Maximum of 100
 *       it had 146 QoS 1 PUBLISHes unacknowledged on a fresh session and over 9,000 after a
 *       reconnect (mosquitto issue 2301; quota fixes in 2.0.13), and after a reconnect it sent a
 *       packet identifier that was still unacknowledged with DUP 0 (MQTT-3.3.1-1).</li>
 *   <li>The HiveMQ client (1.4.x) enforces both strictly: it disconnects with "Received more QoS 1
 *       and/or 2 PUBLISH messages than allowed by receive maximum" (MQTT 5) or "DUP flag must be set
 *       for a resent QoS 1 PUBLISH" (3.1.1). It also keeps every message not yet acknowledged by the
 *       application in one session-wide queue, acknowledges in arrival order, and counts the entries
 *       of the previous connection against the new connection's receive maximum while the broker
 *       redelivers the same messages.</li>
 *   <li>Each reconnect replays the same backlog, so it trips again: the disconnect loop, each message
 *       delivered several times, and while the reconnect backoff grows the broker's queue overflows.</li>
 * </ul>
 * So the connector leaves the client's Receive Maximum at the protocol's 65,535 (a smaller value is
 * what mosquitto 2.0.11 overruns), and processes each message inline (decode, one non-blocking
 * tag-bus publish) and acknowledges it at once: the client's queue never holds more than the message
 * at hand, a reconnect finds nothing stale, and when the gateway falls behind, TCP pushes back on the
 * broker instead of a queue growing in the client. A handler behind a buffer on a busy scheduler is
 * what left thousands of entries behind.
 *
 * <p><b>Flows.</b> When the broker answers a reconnect without a session the client ends its own
 * session state and with it the global publish flow; the protocol client then opens a new flow
 * ({@link #open()}). A generation number silences a flow that is still alive: it only acknowledges
 * its copy of each message (a message is acknowledged to the broker once every flow released it), so
 * no message is delivered twice. Thread-safe.
 */
final class InboundFlow {

    /** Runs the client's callback on the thread that decoded the message. */
    static final Executor INLINE = Runnable::run;

    private final BrokerClient.Events events;
    private final AtomicInteger generation = new AtomicInteger();
    private volatile boolean connectedBefore;

    InboundFlow(BrokerClient.Events events) {
        this.events = events;
    }

    /** A new flow's number; older flows fall silent. */
    int open() {
        return generation.incrementAndGet();
    }

    /** On every CONNACK: whether the client ended its session, so a new flow must be opened. */
    boolean needsNewFlow(boolean sessionPresent) {
        boolean needed = !sessionPresent && connectedBefore;
        connectedBefore = true;
        return needed;
    }

    /** Hands a message of flow {@code flow} to the connector and acknowledges it once taken. */
    void deliver(int flow, String topic, byte[] payload, Runnable acknowledge) {
        if (generation.get() != flow) {
            acknowledge.run();
            return;
        }
        if (events.message(topic, payload)) {
            acknowledge.run();
        }
    }
}
