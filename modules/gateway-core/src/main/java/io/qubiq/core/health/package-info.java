/** The UP / DOWN / UNKNOWN vocabulary shared by device connections and destinations. */
package io.qubiq.core.health;
