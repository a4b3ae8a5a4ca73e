/**
 * Typed failures, named by what the caller must do: {@link io.qubiq.core.error.TransientException}
 * (retry the same batch), {@link io.qubiq.core.error.PermanentException} (quarantine the listed
 * items), {@link io.qubiq.core.error.UnknownOutcomeException} (maybe committed: count an attempt),
 * {@link io.qubiq.core.error.ConfigurationException} (stop the component, fix the named key).
 */
package io.qubiq.core.error;
