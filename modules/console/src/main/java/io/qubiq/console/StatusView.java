package io.qubiq.console;

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

    Readiness readiness();

    List<ComponentStatus> components();
}
