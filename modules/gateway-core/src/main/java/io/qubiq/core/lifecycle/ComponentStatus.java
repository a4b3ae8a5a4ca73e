package io.qubiq.core.lifecycle;

import java.time.Instant;
import java.util.Optional;

/** One component's state, since when, and the error that failed it, if any. */
public record ComponentStatus(String name, ComponentState state, Instant since, Optional<String> error) {
}
