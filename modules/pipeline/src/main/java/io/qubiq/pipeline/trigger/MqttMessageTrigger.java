package io.qubiq.pipeline.trigger;

import io.qubiq.core.event.EventPublisher;
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
 * <p>What a crash costs: a message is acknowledged to the broker (QoS 1 or 2) once it is queued here,
 * so a {@code kill -9} loses what the queue holds, as for a tag-bus subscriber's queue.
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
    private volatile DeliveryLane<DeviceMessages.DeviceMessage> lane;

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
        DeliveryLane<DeviceMessages.DeviceMessage> queue = DeliveryLane.of("pipeline", pipeline.id(), QUEUE_CAPACITY,
                OverflowPolicy.DROP_OLDEST, SubscriptionSpec.DEFAULT_MAX_BATCH_VALUES,
                batch -> pipeline.handle(events(batch)), events, clock);
        queue.start();
        lane = queue;
        try {
            listening = messages.listen(connection, topicFilter, queue::offer);
        } catch (RuntimeException e) {
            stop(queue);
            throw e;
        }
    }

    private static List<Map<String, Object>> events(List<DeviceMessages.DeviceMessage> batch) {
        List<Map<String, Object>> events = new ArrayList<>(batch.size());
        for (DeviceMessages.DeviceMessage message : batch) {
            Map<String, Object> event = new HashMap<>();
            event.put("topic", message.topic());
            event.put("payload", message.payload());
            event.put("json", message.json().orElse(null));
            events.add(event);
        }
        return events;
    }

    @Override
    public long dropped() {
        DeliveryLane<DeviceMessages.DeviceMessage> current = lane;
        return current == null ? 0 : current.stats().dropped();
    }

    @Override
    public java.util.Optional<String> failure() {
        DeliveryLane<DeviceMessages.DeviceMessage> current = lane;
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
        DeliveryLane<DeviceMessages.DeviceMessage> queue = lane;
        if (queue != null) {
            stop(queue);
        }
    }

    private void stop(DeliveryLane<DeviceMessages.DeviceMessage> queue) {
        queue.requestStop();
        try {
            if (!queue.awaitStopped(System.nanoTime() + TimeUnit.SECONDS.toNanos(5))) {
                LOG.warn("The MQTT trigger's delivery thread on {} did not end within 5 s; abandoning it", connection);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int undelivered = queue.stats().queued();
        if (undelivered > 0) {
            LOG.info("The MQTT trigger on {} stopped with {} queued message(s) undelivered", connection, undelivered);
        }
    }
}
