/**
 * Applies a configuration written through the configuration API to the running gateway, one
 * component at a time ({@link io.qubiq.app.apply.LiveApply}), so a change restarts only what it
 * touches and the rest keeps collecting and forwarding.
 */
package io.qubiq.app.apply;
