package io.qubiq.pipeline.trigger;

import io.qubiq.core.tag.TagValue;
import io.qubiq.pipeline.Pipeline;
import io.qubiq.tagbus.CustodialConsumer;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.Subscription;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.tagbus.TagBus;
import io.qubiq.tagbus.TagPattern;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every new value of a matching tag is one event. Subscribes to the tag bus with its own bounded
 * queue and delivery thread ({@code tagbus-pipeline-<id>}), so a slow output never slows another
 * pipeline or the historian. A queue overflow drops the oldest values and counts them (the tag
 * bus's own rule), reported by {@link #dropped}. Its subscriber is custodial: a value of a QoS 1/2
 * MQTT message is acknowledged only once the pipeline's channels took custody of its items
 * ({@link Pipeline#handle(List, io.qubiq.core.tag.Custody)}).
 */
public final class TagChangeTrigger implements Trigger {

    /** Values queued per pipeline before the oldest are dropped: about ten seconds of a busy plant. */
    public static final int QUEUE_CAPACITY = 50_000;
    /** How long a close waits for the pipeline to handle what is queued (a stop, a removal, a new trigger). */
    static final java.time.Duration DRAIN_TIMEOUT = java.time.Duration.ofSeconds(2);

    private final TagBus bus;
    private final List<TagPattern> patterns;
    private volatile Subscription subscription;

    public TagChangeTrigger(TagBus bus, List<String> patterns) {
        this.bus = bus;
        this.patterns = patterns.stream().map(TagPattern::compile).toList();
    }

    /** The tag-bus subscriber name of a pipeline's trigger, as its metrics are tagged. */
    public static String subscriberName(String pipelineId) {
        return "pipeline-" + pipelineId;
    }

    @Override
    public void start(Pipeline pipeline) {
        subscription = bus.subscribe(new SubscriptionSpec(subscriberName(pipeline.id()), QUEUE_CAPACITY,
                OverflowPolicy.DROP_OLDEST, SubscriptionSpec.DEFAULT_MAX_BATCH_VALUES,
                path -> patterns.stream().anyMatch(pattern -> pattern.matches(path)),
                (CustodialConsumer) (values, custody) -> pipeline.handle(variables(values), custody)));
    }

    /** The variables of one event per value, as this trigger delivers them (also what "Try" runs on). */
    public static List<Map<String, Object>> variables(List<TagValue> values) {
        List<Map<String, Object>> events = new ArrayList<>(values.size());
        for (TagValue value : values) {
            Map<String, Object> event = new HashMap<>();
            event.put("path", value.path().value());
            event.put("value", value.value());
            event.put("quality", value.quality().severity().name());
            event.put("good", value.quality().isGood());
            event.put("type", value.type().name());
            event.put("source_time", value.sourceTime());
            event.put("server_time", value.serverTime());
            events.add(event);
        }
        return events;
    }

    @Override
    public long dropped() {
        Subscription current = subscription;
        return current == null ? 0 : current.stats().dropped();
    }

    /**
     * Lets the pipeline handle what is queued for it (at most {@link #DRAIN_TIMEOUT}: its outputs only hand
     * items to their channels), then unsubscribes; what is still queued then is discarded and recorded in the
     * loss ledger by the tag bus ({@code subscriber_closed}).
     */
    @Override
    public void close() {
        Subscription current = subscription;
        if (current != null) {
            try {
                current.drain(DRAIN_TIMEOUT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                current.close();
            }
        }
    }
}
