/**
 * JMH benchmarks, run by {@code scripts/bench-buffer} from the shaded {@code benchmarks.jar} and
 * never by CI. Each append benchmark has a Chronicle Queue twin run in the same session, so
 * results are read as ratios (this machine is a noisy, shared 2-core guest). Benchmark files go
 * under {@code -Dbench.dir} (default: the JVM's temp directory) and are deleted after each
 * iteration or trial.
 */
package io.qubiq.benchmarks;
