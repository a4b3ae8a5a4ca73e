package io.qubiq.connector.opcua;

import io.qubiq.core.tag.TagPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.MonitoredItemSynchronizationException;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.DataChangeTrigger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.DeadbandType;
import org.eclipse.milo.opcua.stack.core.types.structured.DataChangeFilter;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

/**
 * Keeps the server's subscriptions in line with the configured tags. The desired state is the tag
 * list; the actual state is the monitored items Milo holds, each with what the server granted
 * (revised sampling interval and queue size, or the Bad code it refused the item with).
 * {@link #synchronize} reconciles by diff: it removes items whose tag is no longer desired, adds
 * the missing ones to a subscription with room (at most {@code max_items_per_subscription} each,
 * Milo splitting calls by the server's MaxMonitoredItemsPerCall), creates subscriptions that do
 * not exist on the server (first start, or after a failed transfer) and lets Milo create, modify
 * or delete items as needed.
 *
 * <p>Owned by the connector thread: every method but the value callbacks runs there. Values arrive
 * on Milo's delivery threads and go straight to {@code onValue}, with the tag's path resolved when
 * its item was created.
 */
final class SubscriptionSynchronizer {

    /**
     * At most this many notifications in one publish response. Milo's default (65,535) lets a
     * subscription that fell behind (1000 items with 60 queued values each) build a response over
     * the 2 MiB message limit, which is then lost; 10,000 data changes stay near 300 KB and the server
     * sends the rest in further responses ("more notifications").
     */
    static final int MAX_NOTIFICATIONS_PER_PUBLISH = 10_000;

    private final OpcUaConnectionConfig config;
    private final TagDataListener onValue;
    private final Consumer<OpcUaSubscription> onTransferFailed;
    private final Consumer<OpcUaSubscription> onDataLost;
    private final Map<TagPath, OpcUaTagConfig> desired = new LinkedHashMap<>();
    private final Map<TagPath, OpcUaMonitoredItem> actual = new LinkedHashMap<>();
    private final Map<OpcUaMonitoredItem, OpcUaSubscription> owner = new LinkedHashMap<>();
    private final List<OpcUaSubscription> subscriptions = new ArrayList<>();
    /** Items per subscription, counted here: asking Milo copies the subscription's item list each time. */
    private final Map<OpcUaSubscription, Integer> itemCounts = new java.util.IdentityHashMap<>();
    private OpcUaClient client;

    SubscriptionSynchronizer(OpcUaConnectionConfig config, TagDataListener onValue,
                             Consumer<OpcUaSubscription> onTransferFailed, Consumer<OpcUaSubscription> onDataLost) {
        this.config = config;
        this.onValue = onValue;
        this.onTransferFailed = onTransferFailed;
        this.onDataLost = onDataLost;
        config.tags().forEach(tag -> desired.put(tag.tagPath(), tag));
    }

    /** Replaces the desired tags; the next {@link #synchronize} applies the difference. */
    void setDesired(List<OpcUaTagConfig> tags) {
        desired.clear();
        tags.forEach(tag -> desired.put(tag.tagPath(), tag));
    }

    /**
     * Makes the server's state match the desired tags on {@code client}. A new client (a fresh
     * connection) drops every subscription of the old one first.
     *
     * @return the tags whose item the server refused, with its status code
     */
    Map<TagPath, StatusCode> synchronize(OpcUaClient current) throws UaException {
        if (client != current) {
            forgetAll();
            client = current;
        }
        Optional<Long> perCall = operationLimit(current);
        for (TagPath path : List.copyOf(actual.keySet())) {
            OpcUaTagConfig wanted = desired.get(path);
            OpcUaMonitoredItem item = actual.get(path);
            if (wanted == null || !wanted.nodeId().equals(item.getReadValueId().getNodeId().toParseableString())) {
                OpcUaSubscription from = owner.remove(item);
                from.removeMonitoredItem(item);
                itemCounts.merge(from, -1, Integer::sum);
                actual.remove(path);
            }
        }
        for (OpcUaTagConfig tag : desired.values()) {
            if (!actual.containsKey(tag.tagPath())) {
                OpcUaMonitoredItem item = newItem(tag);
                OpcUaSubscription subscription = subscriptionWithRoom(current);
                subscription.addMonitoredItem(item);
                itemCounts.merge(subscription, 1, Integer::sum);
                actual.put(tag.tagPath(), item);
                owner.put(item, subscription);
            }
        }
        for (OpcUaSubscription subscription : subscriptions) {
            perCall.ifPresent(limit -> subscription.setMaxMonitoredItemsPerCall(uint(limit)));
            if (subscription.getSubscriptionId().isEmpty()) {
                subscription.create();
            }
            try {
                subscription.synchronizeMonitoredItems();
            } catch (MonitoredItemSynchronizationException e) {
                // Per-item results are inspected below; the exception only says some failed.
            }
        }
        Map<TagPath, StatusCode> refused = new LinkedHashMap<>();
        actual.forEach((path, item) -> item.getCreateResult().filter(StatusCode::isBad)
                .ifPresent(status -> refused.put(path, status)));
        return refused;
    }

    /** What the server granted each tag's item; empty entries for items not created yet. */
    Map<TagPath, GrantedItem> granted() {
        Map<TagPath, GrantedItem> result = new LinkedHashMap<>();
        actual.forEach((path, item) -> result.put(path, new GrantedItem(
                item.getCreateResult().orElse(StatusCode.UNCERTAIN),
                item.getRevisedSamplingInterval(),
                item.getRevisedQueueSize().map(q -> q.longValue()))));
        return result;
    }

    /**
     * The created items whose granted sampling interval and queue size drop changes
     * ({@link MonitoringRequest#missesChanges}), each with what was granted, in tag order.
     */
    Map<TagPath, String> itemsMissingChanges() {
        Map<TagPath, String> result = new LinkedHashMap<>();
        actual.forEach((path, item) -> {
            OpcUaSubscription subscription = owner.get(item);
            Optional<Double> sampling = item.getRevisedSamplingInterval();
            Optional<Long> queue = item.getRevisedQueueSize().map(q -> q.longValue());
            boolean good = item.getCreateResult().map(StatusCode::isGood).orElse(false);
            if (!good || subscription == null || sampling.isEmpty() || queue.isEmpty()) {
                return;
            }
            double publishing = subscription.getRevisedPublishingInterval().orElse(subscription.getPublishingInterval());
            if (MonitoringRequest.missesChanges(sampling.get(), queue.get(), publishing)) {
                result.put(path, item.getReadValueId().getNodeId().toParseableString() + " (tag " + path
                        + "): sampling interval " + millis(sampling.get()) + " ms, queue size " + queue.get()
                        + ", publishing interval " + millis(publishing) + " ms; keeping every change needs a queue of "
                        + (long) Math.ceil(publishing / sampling.get()));
            }
        });
        return result;
    }

    /**
     * What the server granted, for the log: the items monitored and refused, each subscription with
     * its id, items and publishing interval (revised, and requested when the server changed it), and
     * the range of revised sampling intervals and queue sizes over all items.
     */
    String summary() {
        long refused = actual.values().stream().filter(i -> i.getCreateResult().map(StatusCode::isBad).orElse(false))
                .count();
        StringBuilder out = new StringBuilder();
        out.append(actual.size() - refused).append(" items monitored");
        if (refused > 0) {
            out.append(", ").append(refused).append(" refused");
        }
        out.append(" in ").append(subscriptions.size()).append(subscriptions.size() == 1 ? " subscription" : " subscriptions");
        for (OpcUaSubscription subscription : subscriptions) {
            double requested = subscription.getPublishingInterval();
            double revised = subscription.getRevisedPublishingInterval().orElse(requested);
            out.append("; subscription ").append(subscription.getSubscriptionId().map(Object::toString).orElse("?"))
                    .append(": ").append(itemCounts.getOrDefault(subscription, 0)).append(" items, publishing interval ")
                    .append(millis(revised)).append(" ms");
            if (revised != requested) {
                out.append(" (requested ").append(millis(requested)).append(" ms)");
            }
        }
        var sampling = actual.values().stream().flatMap(i -> i.getRevisedSamplingInterval().stream())
                .mapToDouble(Double::doubleValue).summaryStatistics();
        var queues = actual.values().stream().flatMap(i -> i.getRevisedQueueSize().stream())
                .mapToLong(q -> q.longValue()).summaryStatistics();
        if (sampling.getCount() > 0) {
            out.append("; revised sampling intervals ").append(range(millis(sampling.getMin()), millis(sampling.getMax())))
                    .append(" ms, queue sizes ").append(range(String.valueOf(queues.getMin()),
                            String.valueOf(queues.getMax())));
        }
        return out.toString();
    }

    private static String millis(double ms) {
        return ms == Math.rint(ms) ? String.valueOf((long) ms) : String.valueOf(ms);
    }

    private static String range(String min, String max) {
        return min.equals(max) ? min : min + "-" + max;
    }

    int subscriptionCount() {
        return subscriptions.size();
    }

    /** Forgets subscriptions of a client that is gone; the server drops them with its session. */
    void forgetAll() {
        actual.clear();
        owner.clear();
        subscriptions.clear();
        itemCounts.clear();
        client = null;
    }

    private OpcUaSubscription subscriptionWithRoom(OpcUaClient current) {
        for (OpcUaSubscription subscription : subscriptions) {
            if (itemCounts.getOrDefault(subscription, 0) < config.maxItemsPerSubscription()) {
                return subscription;
            }
        }
        OpcUaSubscription subscription = new OpcUaSubscription(current, (double) config.publishingIntervalMs());
        subscription.setMaxNotificationsPerPublish(uint(MAX_NOTIFICATIONS_PER_PUBLISH));
        subscription.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
            @Override
            public void onTransferFailed(OpcUaSubscription failed, StatusCode status) {
                onTransferFailed.accept(failed);
            }

            @Override
            public void onNotificationDataLost(OpcUaSubscription lossy) {
                onDataLost.accept(lossy);
            }
        });
        subscriptions.add(subscription);
        return subscription;
    }

    private OpcUaMonitoredItem newItem(OpcUaTagConfig tag) {
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(tag.node());
        MonitoringRequest request = config.monitoring(tag);
        item.setSamplingInterval(request.samplingIntervalMs());
        item.setQueueSize(uint(request.queueSize()));
        item.setDiscardOldest(true);
        request.deadbandAbsolute().ifPresent(d -> item.setFilter(new DataChangeFilter(DataChangeTrigger.StatusValue,
                uint(DeadbandType.Absolute.getValue()), d)));
        request.deadbandPercent().ifPresent(d -> item.setFilter(new DataChangeFilter(DataChangeTrigger.StatusValue,
                uint(DeadbandType.Percent.getValue()), d)));
        TagPath path = tag.tagPath();
        item.setDataValueListener((monitored, value) -> onValue.onValue(tag, path, value));
        return item;
    }

    private static Optional<Long> operationLimit(OpcUaClient client) {
        try {
            return client.getOperationLimits().maxMonitoredItemsPerCall().map(v -> v.longValue()).filter(v -> v > 0);
        } catch (UaException e) {
            return Optional.empty();
        }
    }
}
