package io.qubiq.console;

import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;

/** Where the console and its API listen. */
@Doc("The HTTP server that serves the console, the REST API, /health and /metrics.")
public record HttpConfig(
        @Doc("Address to bind. 127.0.0.1 keeps the console on this PC; 0.0.0.0 serves every network"
                + " interface (do that only once sign-in exists: see docs/security.md, a known gap).")
        @Default("127.0.0.1")
        String bindAddress,

        @Doc("TCP port. 0 picks a free port (it is logged at start). The command-line option"
                + " --http-port overrides it.")
        @Default("8080")
        @Range(min = 0, max = 65535)
        int port) {
}
