package io.qubiq.console;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.util.Optional;

/** Where the console and its API listen, and how. */
@Doc("The HTTP server that serves the console, the REST API, /health and /metrics.")
public record HttpConfig(
        @Doc("Address to bind. 127.0.0.1 keeps the console on this PC; 0.0.0.0 serves every network"
                + " interface (then configure tls: see docs/security.md).")
        @Default("127.0.0.1")
        String bindAddress,

        @Doc("TCP port. 0 picks a free port (it is logged at start). The command-line option"
                + " --http-port overrides it.")
        @Default("8080")
        @Range(min = 0, max = 65535)
        int port,

        @Doc("HTTPS: when set, the port serves HTTPS only and the session cookie is marked Secure.")
        Optional<TlsConfig> tls,

        @Doc("Serve /metrics without sign-in (for a Prometheus that cannot send an API token). Otherwise it"
                + " needs the permission View connections, as a session or an API token (Bearer).")
        @Default("false")
        boolean publicMetrics) {

    /** Plain HTTP on this address and port, metrics behind sign-in. */
    public static HttpConfig plain(String bindAddress, int port) {
        return new HttpConfig(bindAddress, port, Optional.empty(), false);
    }

    public HttpConfig withPort(int newPort) {
        return new HttpConfig(bindAddress, newPort, tls, publicMetrics);
    }
}
