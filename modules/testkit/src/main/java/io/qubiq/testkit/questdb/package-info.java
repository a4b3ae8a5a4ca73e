/**
 * A real QuestDB for tests: {@link io.qubiq.testkit.questdb.QuestDbServer} runs the server from its
 * Maven jar as a child JVM on free loopback ports (stop, kill, suspend, restart on the same data),
 * {@link io.qubiq.testkit.questdb.QuestDbExtension} gives each test class one, and
 * {@link io.qubiq.testkit.questdb.QuestDbServer#exec} reads data back over HTTP {@code /exec}. The
 * launcher, the {@code /exec} client and its JSON reader are the gateway's own, from
 * {@code qubiq-questdb-common}.
 */
package io.qubiq.testkit.questdb;
