package io.qubiq.connector.mqtt;

import io.qubiq.core.tag.CustodyReceipt;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How both protocol clients hand incoming messages to the connector and acknowledge them: the one
 * place that decides when the broker hears PUBACK (QoS 1) or PUBREC (QoS 2).
 *
 * <p><b>Acknowledged once kept (issue 19).</b> The HiveMQ client is asked for manual
 * acknowledgement. A QoS 1 or 2 message travels through the tag bus with a {@link CustodyReceipt}:
 * every durable subscriber (the historian, a pipeline triggered by tag changes; a pipeline's message
 * tap likewise) takes a share of it with the value and releases the share
 * once the value is appended to a store-and-forward buffer, delivered by a channel's forwarder, or
 * accounted for as a loss or as deliberate filtering (refused by a full channel, dropped by an
 * overflowing queue, quarantined, discarded by a storage rule, a consumer that threw). The message is
 * acknowledged when the connector took it ({@link BrokerClient.Events#message} returned {@code
 * true}: its values were published, or it was counted as malformed or unmatched) and every share was
 * released, on the thread that released the last one (the HiveMQ client's {@code acknowledge()} only
 * marks the message and schedules the PUBACK on the client's event loop: non-blocking, from any
 * thread; the window is left first, so a client thread waiting for room never waits on it). A message the connector did not take (it is
 * closing, or the tag bus is stopped) is never acknowledged, so the broker redelivers it to the next
 * connection of the persistent session; so is a message whose shares were still held when the
 * gateway stopped or died. A channel's in-memory hand-off holds its shares until the forwarder's
 * write succeeded or the hand-off was spilled into the buffer, so a {@code kill -9} anywhere between
 * the broker and the buffer costs only redeliveries (samples stored twice collapse on the history
 * tables' dedup keys). QoS 0 messages have no acknowledgement and no receipt: they are handed over
 * and forgotten, as before.
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
 * tag-bus publish). Waiting for custody keeps messages unacknowledged for a while (about one write of
 * the historian's channel: rows that carry custody are handed on without lingering), so the client's
 * queue is no longer empty between messages; it stays bounded and short-lived: an {@link AcknowledgementWindow} of {@link #WINDOW} messages, in which a
 * message that would exceed it waits on the client's thread (TCP pushes back on the broker, as when
 * the gateway falls behind) instead of a backlog growing in the client, and every share is released
 * on a bounded path, so after a reconnect the previous connection's entries drain within about a
 * write instead of replaying for ever. A handler behind a buffer on a busy scheduler is what
 * left thousands of entries behind.
 *
 * <p><b>Flows.</b> When the broker answers a reconnect without a session the client ends its own
 * session state and with it the global publish flow; the protocol client then opens a new flow
 * ({@link #open()}). A generation number silences a flow that is still alive: it only acknowledges
 * its copy of each message (a message is acknowledged to the broker once every flow released it), so
 * no message is delivered twice. Thread-safe.
 */
final class InboundFlow {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InboundFlow.class);

    /** Runs the client's callback on the thread that decoded the message. */
    static final Executor INLINE = Runnable::run;
    /** Most QoS 1/2 messages of a connection waiting for custody before the next one waits. */
    static final int WINDOW = 8_192;
    /** Longest a message waits for room in a full window before it is taken anyway (see the window). */
    static final long WINDOW_MAX_WAIT_MS = 5_000;

    private final BrokerClient.Events events;
    private final AcknowledgementWindow window;
    private final AtomicInteger generation = new AtomicInteger();
    private volatile boolean connectedBefore;

    InboundFlow(BrokerClient.Events events) {
        this(events, new AcknowledgementWindow(events.connection(), WINDOW, WINDOW_MAX_WAIT_MS));
    }

    InboundFlow(BrokerClient.Events events, AcknowledgementWindow window) {
        this.events = events;
        this.window = window;
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

    /**
     * Hands a message of flow {@code flow} to the connector and has it acknowledged once taken and
     * kept: at once for QoS 0 (nothing to wait for), after its receipt completed for QoS 1 and 2.
     * {@code acknowledge} may be run on any thread.
     */
    void deliver(int flow, String topic, byte[] payload, int qos, Runnable acknowledge) {
        if (generation.get() != flow) {
            acknowledge.run();
            return;
        }
        if (qos == 0) {
            if (events.message(topic, payload, null)) {
                acknowledge.run();
            }
            return;
        }
        window.enter();
        CustodyReceipt receipt = CustodyReceipt.open(() -> {
            window.leave();
            try {
                acknowledge.run();
            } catch (RuntimeException e) {
                // runs on whichever thread released the last share (a forwarder, a tag-bus thread): never
                // let a client that closed meanwhile break that thread's work; the broker redelivers
                LOG.debug("MQTT connection {}: acknowledging a message failed: {}", events.connection(), e.toString());
            }
        });
        boolean taken = false;
        try {
            taken = events.message(topic, payload, receipt);
        } finally {
            if (taken) {
                receipt.published();
            } else {
                receipt.abandon();
                window.leave();
            }
        }
    }

    /** QoS 1/2 messages taken and not yet acknowledged. */
    int awaitingAcknowledgement() {
        return window.open();
    }
}
