package io.qubiq.app.lifecycle;

import io.qubiq.core.lifecycle.DegradedPart;
import java.util.List;

/** Something that knows which of its parts are down now (destinations, device connections); safe from any thread. */
@FunctionalInterface
public interface DegradedPartSource {

    List<DegradedPart> degradedParts();

    /**
     * Whether a part is still coming up (a device connection within its readiness grace): the gateway
     * is STARTING, not READY, while any source says so. None by default.
     */
    default boolean starting() {
        return false;
    }
}
