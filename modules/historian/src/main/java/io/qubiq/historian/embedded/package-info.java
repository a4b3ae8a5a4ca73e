/**
 * The QuestDB the gateway starts itself ({@code questdb.embedded: true}):
 * {@link io.qubiq.historian.embedded.EmbeddedQuestDb} runs it as a child JVM from the bundled jar in
 * {@code <data>/questdb}, bound to 127.0.0.1, waits for {@code /ping}, restarts it with growing delays on
 * its {@code questdb-restart} thread when it dies, and stops a leftover one a killed gateway left running.
 * It lives beside the historian's other QuestDB support; the command line and the stop by PID are the
 * shared launcher's in {@code questdb-common}.
 *
 * <p><b>Owns</b> the child process: its command line, environment, PID file, logs and restarts.
 *
 * <p><b>Must not</b> write or read history (the historian and its channel do, over HTTP), listen on any
 * address but loopback, or keep the gateway from starting when QuestDB cannot (it is an isolated
 * component: the historian's channel buffers).
 */
package io.qubiq.historian.embedded;
