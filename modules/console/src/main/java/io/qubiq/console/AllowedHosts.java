package io.qubiq.console;

import io.javalin.http.Context;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names the console answers to, checked against every request's {@code Host} header before any
 * handler runs: the defence against DNS rebinding, where a web page of {@code rebind.evil.example} makes
 * the browser send requests to this gateway (its name now resolves to 127.0.0.1) as if they were the
 * page's own.
 *
 * <p>Allowed: {@code localhost}, {@code 127.0.0.1}, {@code [::1]}, the bind address, this machine's host
 * name, every IP literal (a page can only be served from an IP address that is this gateway, so a
 * rebinding attack always carries a name), and {@code http.allowed_hosts}; {@code "*"} there allows every
 * name. The port and a trailing dot are ignored, case too. A request without a {@code Host} header (HTTP/1.0,
 * scripts) did not come from a browser page and passes. A refused request gets 421 Misdirected Request with
 * a line naming the host and the setting, and changes nothing: no handler runs.
 *
 * <p>Immutable; safe for concurrent requests.
 */
final class AllowedHosts {

    private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]*:[0-9a-f:.]*(%[a-z0-9]+)?");

    private final Set<String> names;
    private final boolean anyName;

    private AllowedHosts(Set<String> names, boolean anyName) {
        this.names = Set.copyOf(names);
        this.anyName = anyName;
    }

    /** The defaults for {@code config}'s bind address and this machine, plus its {@code allowed_hosts}. */
    static AllowedHosts of(HttpConfig config) {
        return of(config, localHostName());
    }

    static AllowedHosts of(HttpConfig config, Optional<String> machineName) {
        Set<String> names = new LinkedHashSet<>(List.of("localhost", "localhost.localdomain"));
        names.add(normalize(config.bindAddress()));
        machineName.map(AllowedHosts::normalize).ifPresent(name -> {
            names.add(name);
            int dot = name.indexOf('.');
            if (dot > 0) {
                names.add(name.substring(0, dot));
            }
        });
        boolean any = false;
        for (String entry : config.allowedHosts()) {
            if (entry.equals("*")) {
                any = true;
            } else {
                names.add(normalize(entry));
            }
        }
        return new AllowedHosts(names, any);
    }

    /** Whether {@code entry} may stand in {@code http.allowed_hosts}: a host name, an IP address or "*". */
    static boolean validEntry(String entry) {
        String name = normalize(entry);
        return entry.equals("*") || NAME.matcher(name).matches() || IPV4.matcher(name).matches()
                || IPV6.matcher(name).matches();
    }

    /** Refuses the request (421) when its Host header names a host this gateway does not answer to. */
    void check(Context ctx) {
        String header = ctx.header("Host");
        if (header != null && !allows(header)) {
            throw new ApiError(421, "this gateway does not answer to the host name '" + printable(header)
                    + "' (the request's Host header), so nothing was done: open the console by a name it knows"
                    + " (localhost, its IP address, its host name) or add the name to http.allowed_hosts");
        }
    }

    /** Whether a request with this {@code Host} header value may be served. */
    boolean allows(String hostHeader) {
        if (anyName) {
            return true;
        }
        String host = normalize(withoutPort(hostHeader.trim()));
        if (IPV4.matcher(host).matches() || (hostHeader.trim().startsWith("[") && IPV6.matcher(host).matches())) {
            return true;
        }
        return names.contains(host);
    }

    private static String withoutPort(String header) {
        if (header.startsWith("[")) {
            int end = header.indexOf(']');
            return end < 0 ? header : header.substring(0, end + 1);
        }
        int colon = header.indexOf(':');
        return colon < 0 || header.indexOf(':', colon + 1) >= 0 ? header : header.substring(0, colon);
    }

    private static String normalize(String host) {
        String name = host.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    private static String printable(String header) {
        String cut = header.length() > 100 ? header.substring(0, 100) + "..." : header;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }

    private static Optional<String> localHostName() {
        try {
            return Optional.of(InetAddress.getLocalHost().getHostName()).filter(name -> !name.isBlank());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
