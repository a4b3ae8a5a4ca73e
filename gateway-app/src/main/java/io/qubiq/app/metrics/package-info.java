/**
 * The Prometheus meters: {@link io.qubiq.app.metrics.GatewayMetrics} binds them for the JVM, lifecycle,
 * health, tag bus, device connections, historian, pipelines, disk and every store-and-forward channel
 * ({@code ChannelMeters}: the same {@code sf_*} names for each, told apart by {@code connection});
 * {@link io.qubiq.app.metrics.LossCounters} counts lost items and bytes.
 *
 * <p><b>Owns</b> the meter names and their tags.
 *
 * <p><b>Must not</b> be called on a hot path: values are read from the owners' own counters at scrape
 * time, on the scrape's thread. Every object a gauge reads is held strongly ({@code Meters}), because
 * Micrometer holds it weakly and a collected one reads NaN.
 */
package io.qubiq.app.metrics;
