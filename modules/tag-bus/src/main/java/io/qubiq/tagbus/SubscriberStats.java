package io.qubiq.tagbus;

/**
 * One subscriber's counters at one moment. Every value the subscriber's filter accepted is, at any
 * time, either queued, in the consumer's hands, delivered, dropped or failed; none disappears
 * uncounted.
 *
 * @param name           the subscriber's name
 * @param policy         what its queue does when full
 * @param capacity       queue capacity in values ({@code tagbus_queue_capacity_values})
 * @param queued         values waiting in the queue now ({@code tagbus_queue_values}); after the bus
 *                       stopped, the values left undelivered
 * @param delivered      values in batches the consumer returned from normally
 *                       ({@code tagbus_values_delivered_total})
 * @param dropped        values discarded by the overflow policy ({@code tagbus_values_dropped_total})
 * @param consumerErrors consumer calls that threw ({@code tagbus_consumer_errors_total})
 * @param failed         values in the batches whose consumer threw ({@code tagbus_values_failed_total})
 */
public record SubscriberStats(String name, OverflowPolicy policy, int capacity, int queued, long delivered,
                              long dropped, long consumerErrors, long failed) {
}
