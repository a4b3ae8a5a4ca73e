/**
 * The loss ledger: a durable, size-bounded record of every loss of data in the gateway, summed per
 * source, reason and minute, with queries by time, connection and reason and totals per day.
 *
 * <p>Writes {@code losses-YYYY-MM-DD.ledger} files in one directory (normally {@code <data>/losses/}),
 * never anything else; damage in them is skipped and counted, never thrown. Depends on the core's
 * {@link io.qubiq.core.event.DataLoss} vocabulary only.
 */
package io.qubiq.losses;
