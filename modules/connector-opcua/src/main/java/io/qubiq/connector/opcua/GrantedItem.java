package io.qubiq.connector.opcua;

import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;

/**
 * What the server granted one tag's monitored item: Good with the revised sampling interval and
 * queue size, or the Bad code it refused the item with ({@code Uncertain} while not created yet).
 * Immutable.
 */
public record GrantedItem(StatusCode status, Optional<Double> samplingIntervalMs, Optional<Long> queueSize) {
}
