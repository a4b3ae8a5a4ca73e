/**
 * Benchmarks, never run by CI.
 *
 * <ul>
 *   <li>JMH benchmarks of the durable buffer, run by {@code scripts/bench-buffer} from the shaded
 *       {@code benchmarks.jar}. Each append benchmark has a Chronicle Queue twin run in the same
 *       session, so results are read as ratios (this machine is a noisy, shared 2-core guest).
 *       Benchmark files go under {@code -Dbench.dir} (default: the JVM's temp directory) and are
 *       deleted after each iteration or trial.
 *   <li>Throughput harnesses, one per destination or source, run by {@code scripts/bench-historian},
 *       {@code bench-sql}, {@code bench-mongodb}, {@code bench-mqtt} and {@code bench-opcua} against
 *       real servers. They share one skeleton, {@link io.qubiq.benchmarks.ThroughputHarness} (its class
 *       doc is the contract: command line, set-up, timed runs, report, tear-down, exit codes); each
 *       keeps only its server, what one timed run does and what it counts.
 * </ul>
 */
package io.qubiq.benchmarks;
