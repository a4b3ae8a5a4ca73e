package io.qubiq.sink.questdb;

import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.tls.TrustEverything;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;

/**
 * Checks a QuestDB destination without writing: an HTTP(S) {@code GET /ping} to the sink's own
 * address with the same TLS setting and credentials, on a connection of its own (so it never
 * disturbs a write in progress). 2xx is UP; a refused connection, a timeout or any other status is
 * DOWN with the reason. Never throws.
 *
 * <p>Thread-safe: {@link java.net.http.HttpClient} is.
 */
final class PingProbe {

    private final HttpClient http;
    private final URI uri;
    private final String authorization;
    private final Duration timeout;
    private final Clock clock;

    PingProbe(QuestDbSinkConfig config, HostPort address, Clock clock) {
        this.clock = clock;
        this.timeout = Duration.ofMillis(config.requestTimeoutMs());
        this.uri = URI.create((config.tls() ? "https://" : "http://") + address + "/ping");
        this.authorization = config.token().map(token -> "Bearer " + token)
                .or(() -> config.username().map(user -> "Basic " + Base64.getEncoder().encodeToString(
                        (user + ":" + config.password().orElse("")).getBytes(StandardCharsets.UTF_8))))
                .orElse(null);
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
        if (config.tls() && !config.tlsVerify()) {
            builder.sslContext(TrustEverything.sslContext());
        }
        this.http = builder.build();
    }

    ConnectionStatus probe() {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            return status / 100 == 2 ? ConnectionStatus.up(clock.instant())
                    : ConnectionStatus.down(clock.instant(), "GET " + uri + " answered HTTP " + status);
        } catch (IOException e) {
            return ConnectionStatus.down(clock.instant(), "GET " + uri + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ConnectionStatus.unknown(clock.instant());
        } catch (RuntimeException e) {
            return ConnectionStatus.down(clock.instant(), "GET " + uri + " failed: " + e);
        }
    }
}
