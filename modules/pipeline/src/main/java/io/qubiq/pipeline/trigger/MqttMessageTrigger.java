package io.qubiq.pipeline.trigger;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.tag.Custody;
import io.qubiq.pipeline.Pipeline;
import io.qubiq.tagbus.DeliveryLane;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.SubscriptionSpec;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each message on a topic filter of an MQTT device connection is one event. The connector's message
 * thread only queues the message: the pipeline runs on its own bounded queue and supervised delivery
 * thread ({@code pipeline-<id>}, a {@link DeliveryLane}, the tag-bus subscriber's machinery), so a
 * slow or stuck pipeline never delays the connection's tag values or other taps. A full queue drops
 * its oldest messages, each counted ({@link #dropped}) and reported to the loss ledger
 * ({@code tag_bus_overflow}, component {@code pipeline}); a pipeline that throws loses only the
 * messages in hand ({@code subscriber_failed}); an {@code Error} restarts the thread with backoff
 * under the {@code subscriber_failed} alarm.
 *
 * <p>What a crash costs: a QoS 1 or 2 message is queued with its custody and acknowledged to the
 * broker only once the pipeline's outputs took custody of its items (written or buffered), or it
 * was accounted for (dropped by the full queue, lost by a throwing pipeline, filtered away, failed,
 * or still queued when the trigger stopped), so a {@code kill -9} costs redeliveries, not messages.
 */
public final class MqttMessageTrigger implements Trigger {

    private static final Logger LOG = LoggerFactory.getLogger(MqttMessageTrigger.class);
    /** Messages queued per pipeline before the oldest are dropped, as for a tag-change trigger. */
    public static final int QUEUE_CAPACITY = TagChangeTrigger.QUEUE_CAPACITY;

    private final DeviceMessages messages;
    private final String connection;
    private final String topicFilter;
    private final EventPublisher events;
    private final Clock clock;
    private volatile AutoCloseable listening;
    private volatile DeliveryLane<Queued> lane;

    /** A message with its custody, while it waits in the queue. */
    private record Queued(DeviceMessages.DeviceMessage message, Custody custody) {
        static void release(Queued queued) {
            queued.custody().release();
        }
    }

    public MqttMessageTrigger(DeviceMessages messages, String connection, String topicFilter, EventPublisher events,
                              Clock clock) {
        this.messages = messages;
        this.connection = connection;
        this.topicFilter = topicFilter;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public void start(Pipeline pipeline) {
        DeliveryLane<Queued> queue = DeliveryLane.of("pipeline", pipeline.id(), QUEUE_CAPACITY,
                OverflowPolicy.DROP_OLDEST, SubscriptionSpec.DEFAULT_MAX_BATCH_VALUES,
                batch -> handle(pipeline, batch), events, clock);
        queue.whenDiscarded(Queued::release); // dropped and counted: a loss, accounted for
        queue.start();
        lane = queue;
        try {
            listening = messages.listenKeeping(connection, topicFilter,
                    (message, custody) -> queue.offer(new Queued(message, custody)));
        } catch (RuntimeException e) {
            stop(queue);
            throw e;
        }
    }

    /** One batch of the queue: the pipeline releases the custody, or it is released here if it throws. */
    private static void handle(Pipeline pipeline, List<Queued> batch) {
        List<Custody> shares = new ArrayList<>(batch.size());
        for (Queued queued : batch) {
            shares.add(queued.custody());
        }
        Custody custody = Custody.allOf(shares);
        try {
            pipeline.handle(events(batch), custody);
        } catch (RuntimeException | Error e) {
            custody.release(); // the batch is counted as failed: a loss, accounted for
            throw e;
        }
    }

    private static List<Map<String, Object>> events(List<Queued> batch) {
        List<Map<String, Object>> events = new ArrayList<>(batch.size());
        for (Queued queued : batch) {
            events.add(variables(queued.message()));
        }
        return events;
    }

    /** The variables of the event a message makes, as this trigger delivers them (also what "Try" runs on). */
    public static Map<String, Object> variables(DeviceMessages.DeviceMessage message) {
        Map<String, Object> event = new HashMap<>();
        event.put("topic", message.topic());
        event.put("payload", message.payload());
        event.put("json", message.json().orElse(null));
        return event;
    }

    @Override
    public long dropped() {
        DeliveryLane<Queued> current = lane;
        return current == null ? 0 : current.stats().dropped();
    }

    @Override
    public java.util.Optional<String> failure() {
        DeliveryLane<Queued> current = lane;
        return current == null ? java.util.Optional.empty() : current.failure();
    }

    @Override
    public void close() {
        AutoCloseable current = listening;
        if (current != null) {
            try {
                current.close();
            } catch (Exception e) {
                LOG.debug("Closing the MQTT trigger on {} failed", connection, e);
            }
        }
        DeliveryLane<Queued> queue = lane;
        if (queue != null) {
            stop(queue);
        }
    }

    private void stop(DeliveryLane<Queued> queue) {
        queue.requestStop();
        try {
            if (!queue.awaitStopped(System.nanoTime() + TimeUnit.SECONDS.toNanos(5))) {
                LOG.warn("The MQTT trigger's delivery thread on {} did not end within 5 s; abandoning it", connection);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        queue.forEachQueued(Queued::release); // never delivered: no broker may wait on them
        int undelivered = queue.stats().queued();
        if (undelivered > 0) {
            LOG.info("The MQTT trigger on {} stopped with {} queued message(s) undelivered", connection, undelivered);
        }
    }
}
