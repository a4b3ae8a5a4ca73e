/**
 * The tag bus: every tag value a connector publishes is recorded once in the {@link
 * io.qubiq.tagbus.LatestValues latest-value table} and fanned out to each subscriber (historian,
 * pipelines, console) through that subscriber's own bounded queue.
 *
 * <p>The flow: a connector calls {@link io.qubiq.tagbus.TagBus#publish}; the bus updates the
 * latest value of the tag and offers the value to every subscriber whose {@link
 * io.qubiq.tagbus.TagFilter} accepts the path. Publishing never blocks on a subscriber: when a
 * subscriber's queue is full its {@link io.qubiq.tagbus.OverflowPolicy} discards either the oldest
 * queued value or the incoming one, and the drop is counted in {@link
 * io.qubiq.tagbus.SubscriberStats} and reported by a rate-limited WARN. Each subscriber's
 * consumer runs on its own daemon thread, {@code tagbus-<name>}, so a slow or failing consumer
 * only fills its own queue.
 *
 * <p>Guarantees: values of one tag reach each subscriber in publish order, and that order agrees
 * with the latest-value table. Nothing is dropped without being counted. The bus keeps no history
 * and writes nothing durable: durability belongs to the store-and-forward channels behind the
 * subscribers.
 *
 * <p>Metric names for the application's binding: {@code tagbus_values_published_total},
 * {@code tagbus_tags} and, per subscriber, {@code tagbus_queue_values}, {@code
 * tagbus_queue_capacity_values}, {@code tagbus_values_delivered_total}, {@code
 * tagbus_values_dropped_total}, {@code tagbus_consumer_errors_total}, {@code
 * tagbus_values_failed_total}.
 */
package io.qubiq.tagbus;
