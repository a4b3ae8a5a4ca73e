package io.qubiq.app.lifecycle;

import java.time.Duration;
import java.util.List;

/**
 * How a shutdown went: how long it took, the components whose stop threw (they are still counted
 * as stopped), and the ones still stopping when the grace period ran out.
 */
public record StopReport(Duration took, List<String> failed, List<String> unfinished) {

    public boolean timedOut() {
        return !unfinished.isEmpty();
    }
}
