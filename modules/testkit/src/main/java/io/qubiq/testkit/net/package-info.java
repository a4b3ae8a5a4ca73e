/**
 * Network fault injection for integration tests: {@link io.qubiq.testkit.net.TcpProxy}, a loopback
 * TCP proxy that can black-hole replies (a read timeout after the request was sent) or reset
 * connections, in front of any real server.
 */
package io.qubiq.testkit.net;
