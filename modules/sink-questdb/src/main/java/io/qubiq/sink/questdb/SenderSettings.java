package io.qubiq.sink.questdb;

/**
 * The questdb-client configuration string for a {@link QuestDbSinkConfig}: ILP over HTTP(S), no
 * auto-flush (the sink flushes each batch itself), no client-side retries ({@code retry_timeout=0};
 * the channel retries), and an explicit protocol version so that creating a sender never touches
 * the network. The string carries secrets: never log it.
 */
final class SenderSettings {

    /** ILP protocol version 2 (binary doubles); QuestDB 8.3 and later accept it. */
    static final int PROTOCOL_VERSION = 2;

    private SenderSettings() {
    }

    static String connectString(QuestDbSinkConfig config, HostPort address) {
        StringBuilder s = new StringBuilder(config.tls() ? "https::" : "http::");
        put(s, "addr", address.toString());
        put(s, "auto_flush", "off");
        put(s, "retry_timeout", "0");
        put(s, "request_timeout", Long.toString(config.requestTimeoutMs()));
        put(s, "request_min_throughput", Long.toString(config.minRequestThroughputBytesPerSecond()));
        put(s, "protocol_version", Integer.toString(PROTOCOL_VERSION));
        if (config.tls() && !config.tlsVerify()) {
            put(s, "tls_verify", "unsafe_off");
        }
        config.token().ifPresent(token -> put(s, "token", token));
        config.username().ifPresent(user -> put(s, "username", user));
        config.password().ifPresent(password -> put(s, "password", password));
        return s.toString();
    }

    /** A value's {@code ;} is doubled, as the configuration string syntax requires. */
    private static void put(StringBuilder s, String key, String value) {
        s.append(key).append('=').append(value.replace(";", ";;")).append(';');
    }
}
