package io.qubiq.app.lifecycle;

import io.qubiq.core.lifecycle.DegradedPart;
import java.util.List;

/** Something that knows which of its parts are down now (destinations, device connections); safe from any thread. */
@FunctionalInterface
public interface DegradedPartSource {

    List<DegradedPart> degradedParts();
}
