package io.qubiq.sink.questdb;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the QuestDB sink reaches its server. The client's own retries are always off
 * ({@code retry_timeout=0}): the store-and-forward channel retries, the sink never does.
 */
@Doc("A QuestDB destination written over ILP/HTTP.")
public record QuestDbSinkConfig(
        @Doc("host:port of QuestDB's HTTP endpoint, which serves ILP over HTTP and /ping.")
        @Default("127.0.0.1:9000")
        String address,

        @Doc("Use HTTPS instead of HTTP.")
        @Default("false")
        boolean tls,

        @Doc("With tls, verify the server certificate against the JVM's trust store. Turn off only for a"
                + " test server with a self-signed certificate.")
        @Default("true")
        boolean tlsVerify,

        @Doc("Bearer token for HTTP authentication (QuestDB Enterprise or a proxy). Not together with"
                + " username and password.")
        @Secret
        Optional<String> token,

        @Doc("User name for HTTP basic authentication; requires password.")
        Optional<String> username,

        @Doc("Password for HTTP basic authentication; requires username.")
        @Secret
        Optional<String> password,

        @Doc("How long one write (send and answer) may take. A write that times out after it was sent has"
                + " an unknown outcome: it may have committed.")
        @Default("10000")
        @Range(min = 1, max = 3600000)
        long requestTimeoutMs,

        @Doc("Expected minimum upload rate in bytes per second: each write may take request_timeout_ms plus"
                + " its size divided by this rate. 0 adds nothing.")
        @Default("102400")
        @Range(min = 0, max = 1073741824)
        long minRequestThroughputBytesPerSecond,

        @Doc("Whether replaying a row that may already be written is harmless, because every table this"
                + " connection writes has DEDUP UPSERT KEYS over the designated timestamp and the row's"
                + " identifying symbols. Then writes with an unknown outcome are retried without a cap.")
        @Default("false")
        boolean idempotent) implements ConfigChecked {

    /** The defaults, pointing at a local QuestDB. */
    public static QuestDbSinkConfig defaults() {
        return of("127.0.0.1:9000");
    }

    /** Plain HTTP to {@code address}, every other key at its default. */
    public static QuestDbSinkConfig of(String address) {
        return new QuestDbSinkConfig(address, false, true, Optional.empty(), Optional.empty(), Optional.empty(),
                10_000, 102_400, false);
    }

    /** The same settings against another server (the gateway's embedded QuestDB, say). */
    public QuestDbSinkConfig withAddress(String value) {
        return new QuestDbSinkConfig(value, tls, tlsVerify, token, username, password, requestTimeoutMs,
                minRequestThroughputBytesPerSecond, idempotent);
    }

    /** The same settings with HTTP basic authentication as {@code user} (and no bearer token). */
    public QuestDbSinkConfig withBasicAuth(String user, String secret) {
        return new QuestDbSinkConfig(address, tls, tlsVerify, Optional.empty(), Optional.of(user), Optional.of(secret),
                requestTimeoutMs, minRequestThroughputBytesPerSecond, idempotent);
    }

    public QuestDbSinkConfig withRequestTimeoutMs(long value) {
        return new QuestDbSinkConfig(address, tls, tlsVerify, token, username, password, value,
                minRequestThroughputBytesPerSecond, idempotent);
    }

    public QuestDbSinkConfig withIdempotent(boolean value) {
        return new QuestDbSinkConfig(address, tls, tlsVerify, token, username, password, requestTimeoutMs,
                minRequestThroughputBytesPerSecond, value);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        HostPort.parse(address).ifPresentOrElse(ok -> { }, () -> violations.add(new Violation("address",
                "expected host:port with a port from 1 to 65535, was \"" + address + "\"")));
        if (token.isPresent() && (username.isPresent() || password.isPresent())) {
            violations.add(new Violation("token", "use either token or username and password, not both"));
        }
        if (username.isPresent() != password.isPresent()) {
            violations.add(new Violation(username.isPresent() ? "password" : "username",
                    "username and password go together"));
        }
        if (!tls && !tlsVerify) {
            violations.add(new Violation("tls_verify", "only applies with tls: true"));
        }
        return violations;
    }
}
