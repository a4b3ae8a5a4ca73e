/**
 * The simulated plant that {@code qubiq demo} starts, so the demo shows live data from a real OPC
 * UA server without any hardware.
 *
 * <p>{@link io.qubiq.demoplant.PlantModel} simulates a small process on a fixed tick: a tank whose
 * level a PI controller holds at a writable setpoint by moving the inlet valve, a pump with a
 * low-level stop (hysteresis) and a writable permission, a motor whose speed ramps toward a
 * changing demand and whose current and temperature follow the load, a drifting product
 * temperature, and a production counter. It is deterministic for a seed and testable without a
 * server. {@link io.qubiq.demoplant.SimulatedPlant} is the {@link io.qubiq.core.lifecycle.Component}
 * ({@code demo-plant}) that steps it and serves it with Eclipse Milo on 127.0.0.1 (SecurityPolicy
 * None, anonymous, namespace {@code urn:qubiq:demo-plant}); {@link
 * io.qubiq.demoplant.SimulatedPlant#nodes()} lists the variables for the OPC UA connection the
 * application builds. Settings: {@link io.qubiq.demoplant.DemoPlantConfig}. See docs/demo.md.
 *
 * <p>What it writes: nothing outside its own OPC UA server. Errors: {@code start} fails with a
 * {@link io.qubiq.core.error.ConfigurationException} when the port is taken (not retriable until
 * the port or the setting changes); client writes outside a setpoint's range or type are refused
 * with Bad_OutOfRange or Bad_TypeMismatch and leave the process unchanged.
 */
package io.qubiq.demoplant;
