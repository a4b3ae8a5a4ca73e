/**
 * Store-and-forward: one {@link io.qubiq.storeforward.StoreForwardChannel} per outbound connection,
 * made of a durable buffer, a single forwarder thread, the ordering latch, a durable quarantine and
 * the pressure alarms, in front of one sink. The {@link io.qubiq.storeforward.ConnectionMonitor}
 * probes destinations and gates the forwarders. The rules these classes keep are DESIGN.md's
 * "Store-and-forward: the rules that must hold"; docs/store-and-forward.md explains them to users.
 *
 * <p>Metric names (the same for every channel, labelled {@code connection}): {@code
 * sf_buffer_bytes}, {@code sf_buffer_items}, {@code sf_buffer_max_bytes}, {@code
 * sf_oldest_item_age_seconds}, {@code sf_items_in_total}, {@code sf_items_delivered_total}, {@code
 * sf_items_dropped_total}, {@code sf_items_quarantined_total}, {@code sf_delivery_attempts_total},
 * {@code sf_quarantine_items}, {@code sf_quarantine_bytes}, {@code sf_pressure_alarm}.
 */
package io.qubiq.storeforward;
