/**
 * Pipelines: user-declared flows from a trigger (tag changes, a timer, messages of an MQTT device
 * connection) through an optional filter and transforms, written as sandboxed expressions, to one
 * or more outputs. Each output maps an event to its connection's item type and submits it to that
 * connection's store-and-forward channel; the channel, not the pipeline, buffers, retries and
 * quarantines. A pipeline's state (enabled, counters, last error) lives in a file in the data
 * directory and survives restarts. See {@code docs/pipelines.md}.
 *
 * <p>This module knows no sink: the application turns each output section into an
 * {@link io.qubiq.pipeline.ItemMapper} for its connection's item type.
 */
package io.qubiq.pipeline;
