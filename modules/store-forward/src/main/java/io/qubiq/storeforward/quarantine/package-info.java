/**
 * Durable storage behind a store-and-forward channel's quarantine: the operator queue of items a
 * destination rejected (permanent failures) or never confirmed (unknown outcome past the attempt
 * cap). {@link io.qubiq.storeforward.quarantine.QuarantineStore} is the contract;
 * {@link io.qubiq.storeforward.quarantine.FileQuarantineStore} keeps one checksummed file per entry,
 * {@link io.qubiq.storeforward.quarantine.MemoryQuarantineStore} is its in-memory twin for tests.
 * {@link io.qubiq.storeforward.quarantine.RetriedItems} follows, in memory, items retried out of a
 * store until the forwarder delivers them or sets them aside again. Retry, drop and audit belong to
 * the layer above.
 */
package io.qubiq.storeforward.quarantine;
