/** How components start and stop, and how their state is reported. */
package io.qubiq.core.lifecycle;
