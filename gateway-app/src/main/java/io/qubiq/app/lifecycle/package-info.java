/**
 * Start, stop and health: {@link io.qubiq.app.lifecycle.Lifecycle} starts components in the order the
 * wiring added them and stops them in reverse within one grace period (each stop on the
 * {@code component-stopper} thread); a required component that fails stops the start, an isolated one is
 * marked FAILED and the rest runs. {@link io.qubiq.app.lifecycle.GatewayStatus} is the console's view of
 * readiness and of the parts that are down now, gathered from every
 * {@link io.qubiq.app.lifecycle.DegradedPartSource} ({@link io.qubiq.app.lifecycle.UserStoreParts} for a
 * damaged user store among them).
 *
 * <p><b>Owns</b> the component states (NEW, STARTING, RUNNING, FAILED, STOPPING, STOPPED), readiness, and the
 * one-line failure reasons ({@code FailureReason}).
 *
 * <p><b>Must not</b> know concrete components (it works on {@code io.qubiq.core.lifecycle.Component}),
 * retry a failed start, or restart anything: supervision of worker threads is the components' own
 * ({@code SupervisedThread}).
 */
package io.qubiq.app.lifecycle;
