/** Alarm and audit events: typed records every component reports through {@link io.qubiq.core.event.EventPublisher}. */
package io.qubiq.core.event;
