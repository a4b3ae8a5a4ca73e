/**
 * Every loss of data, recorded: {@link io.qubiq.app.losses.LossRecorder} takes each {@code DataLoss}
 * from the {@code EventPublisher}, counts it in the Prometheus counters at once, logs it
 * ({@code LossLog}: summed per source and reason so a storm cannot flood the log), raises the
 * data-lost alarm for a loss nobody asked for ({@code LossAlarms}) and writes the loss ledger of
 * {@code modules/loss-ledger} once a second on its {@code loss-ledger} thread.
 * {@link io.qubiq.app.losses.LedgerLosses} is the console's query view.
 *
 * <p><b>Owns</b> the ledger's runtime: the flush thread, the alarm episodes and the log throttling.
 *
 * <p><b>Must not</b> wait for the disk on the caller's thread ({@code record} only sums in memory), and
 * must not define the ledger's file format or queries (that is {@code modules/loss-ledger}).
 */
package io.qubiq.app.losses;
