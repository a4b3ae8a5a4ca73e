/**
 * The end-to-end target run of issue 20 ({@code scripts/target-run}, never run by CI): the packaged
 * gateway as a child process, started by the {@code qubiq} launcher exactly as an operator starts it,
 * against independent peers that are child processes too: a QuestDB JVM from its Maven jar, the OPC UA
 * bench server JVM ({@code io.qubiq.benchmarks.OpcUaBenchServer}, started by class name) and
 * mosquitto with persistence. An in-process HiveMQ client publishes numbered MQTT messages; at the
 * end the history in QuestDB is checked value by value against what was published and acknowledged.
 *
 * <p>Roles: {@link io.qubiq.benchmarks.targetrun.TargetRun} (the sequence of the run), {@link
 * io.qubiq.benchmarks.targetrun.TargetOptions} (command line), {@link
 * io.qubiq.benchmarks.targetrun.GatewayConfigWriter} (the gateway's YAML), {@link
 * io.qubiq.benchmarks.targetrun.GatewayChild} (the gateway process), {@link
 * io.qubiq.benchmarks.targetrun.BenchServerChild} (the OPC UA server process), {@link
 * io.qubiq.benchmarks.targetrun.SequencePublisher} (the MQTT load), {@link
 * io.qubiq.benchmarks.targetrun.ProcessSampler} (CPU and RSS from {@code /proc}), {@link
 * io.qubiq.benchmarks.targetrun.HistoryCheck} (the verdict from QuestDB) and {@link
 * io.qubiq.benchmarks.targetrun.TargetReport} (what is printed). Every process is stopped by its PID.
 */
package io.qubiq.benchmarks.targetrun;
