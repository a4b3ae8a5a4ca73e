/** The contract of outbound destinations: write-and-flush a batch, classify failures, probe health. */
package io.qubiq.core.sink;
