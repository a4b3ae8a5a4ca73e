package io.qubiq.console;

import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.util.List;

/**
 * What the console may read about the running gateway. The application implements it; the console
 * only reads, so it never learns a concrete component class. Must be safe to call from HTTP
 * threads at any time, including during start-up and shutdown.
 */
public interface StatusView {

    GatewayInfo info();

    /** The gateway as a whole; DEGRADED exactly while {@link #degradedParts} lists something. */
    Readiness readiness();

    List<ComponentStatus> components();

    /** Every part that is down now, each with its reason: failed components, disconnected destinations and devices. */
    List<DegradedPart> degradedParts();

    /** Free space of each watched directory (the data directory, the embedded QuestDB's), last sampled. */
    default List<DiskStatus> disks() {
        return List.of();
    }
}
