package io.qubiq.sink.questdb;

import java.util.Optional;

/** A parsed {@code host:port} (IPv4 address or host name; QuestDB's client takes no IPv6 literal). */
record HostPort(String host, int port) {

    static Optional<HostPort> parse(String address) {
        if (address == null) {
            return Optional.empty();
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon != address.indexOf(':') || colon == address.length() - 1) {
            return Optional.empty();
        }
        String host = address.substring(0, colon);
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_')) {
                return Optional.empty();
            }
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            return port >= 1 && port <= 65535 ? Optional.of(new HostPort(host, port)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
