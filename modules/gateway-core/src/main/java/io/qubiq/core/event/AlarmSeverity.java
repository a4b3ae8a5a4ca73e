package io.qubiq.core.event;

/** How urgently an operator should look. */
public enum AlarmSeverity {
    /** Worth knowing; nothing is at risk yet. */
    INFO,
    /** Something degrades and will put data at risk if it continues (a buffer filling up). */
    WARNING,
    /** Data is being lost or refused, or a component is stuck until an operator acts. */
    CRITICAL
}
