package io.qubiq.console;

import io.qubiq.core.event.AlarmEvent;
import java.util.List;

/** The alarms the console shows: those active now, and the latest raises and clears, newest first. */
public interface AlarmAccess {

    List<AlarmEvent> active();

    /** Newest first, bounded by the implementation. */
    List<AlarmEvent> recent();
}
