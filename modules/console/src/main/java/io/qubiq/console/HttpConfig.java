package io.qubiq.console;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import java.util.ArrayList;
import java.util.List;
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
        boolean publicMetrics,

        @Doc("Host names the console answers to besides localhost, 127.0.0.1, [::1], the bind address, this"
                + " machine's host name and any IP address: the names operators type in the browser (a DNS alias,"
                + " the name of a reverse proxy). A request whose Host header names anything else is refused with"
                + " 421, so a web page cannot reach the console by DNS rebinding. \"*\" allows every name.")
        @Default("[]")
        List<String> allowedHosts) implements ConfigChecked {

    public HttpConfig {
        allowedHosts = List.copyOf(allowedHosts);
    }

    /** The former shape, without extra host names. */
    public HttpConfig(String bindAddress, int port, Optional<TlsConfig> tls, boolean publicMetrics) {
        this(bindAddress, port, tls, publicMetrics, List.of());
    }

    /** Plain HTTP on this address and port, metrics behind sign-in. */
    public static HttpConfig plain(String bindAddress, int port) {
        return new HttpConfig(bindAddress, port, Optional.empty(), false);
    }

    public HttpConfig withPort(int newPort) {
        return new HttpConfig(bindAddress, newPort, tls, publicMetrics, allowedHosts);
    }

    public HttpConfig withAllowedHosts(List<String> names) {
        return new HttpConfig(bindAddress, port, tls, publicMetrics, names);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        for (int i = 0; i < allowedHosts.size(); i++) {
            String name = allowedHosts.get(i);
            if (!AllowedHosts.validEntry(name)) {
                violations.add(new Violation("allowed_hosts[" + i + "]", "'" + name + "' is not a host name: letters,"
                        + " digits, '-' and '.', an IP address, or \"*\" (no scheme, port or path)"));
            }
        }
        return violations;
    }
}
