/**
 * A QuestDB server as a child JVM, started the same way by the gateway (its embedded QuestDB) and by
 * the testkit (a test server): the command line and settings ({@link io.qubiq.questdb.process.QuestDbLaunch}),
 * free loopback ports ({@link io.qubiq.questdb.process.LoopbackPorts}), the wait until it answers
 * {@code /ping} and the stop by PID ({@link io.qubiq.questdb.process.QuestDbProcess}).
 */
package io.qubiq.questdb.process;
