package io.qubiq.core.event;

import java.time.Instant;

/**
 * A condition raised or cleared by a component. Each kind is its own record carrying the figures
 * an operator needs; all share a stable {@link #key()} (one alarm per key is active at a time) so
 * the event journal and the console can pair a clear with its raise.
 */
public sealed interface AlarmEvent
        permits AuditNotJournaledAlarm, BufferPressureAlarm, DataLostAlarm, DestinationSlowAlarm, DiskSpaceAlarm,
        DynamicTagLimitAlarm, ForwarderFailedAlarm, ItemsDroppedAlarm, ItemsRefusedAlarm, QuarantineFullAlarm,
        QuarantineUnwritableAlarm, RefusalSpikeAlarm, SubscriberFailedAlarm, WalSuspendedAlarm {

    /** Identifies the alarm across raise and clear, such as {@code buffer-pressure/historian}. */
    String key();

    /** The connection or component that raised it. */
    String source();

    AlarmSeverity severity();

    /** True when raised, false when cleared. */
    boolean active();

    Instant at();

    /** One sentence for the operator, with the figures that matter. */
    String message();
}
