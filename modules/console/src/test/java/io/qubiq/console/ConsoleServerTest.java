package io.qubiq.console;

import io.qubiq.core.lifecycle.Readiness;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ConsoleServerTest {

    static final class SettableStatus implements StatusView {
        volatile Readiness readiness = Readiness.STARTING;

        @Override
        public GatewayInfo info() {
            return new GatewayInfo("Test gateway", "1.2.3", Instant.parse("2026-01-01T00:00:00Z"));
        }

        @Override
        public Readiness readiness() {
            return readiness;
        }

        @Override
        public List<ComponentStatus> components() {
            return List.of(
                    new ComponentStatus("tag-bus", ComponentState.RUNNING, Instant.parse("2026-01-01T00:00:01Z"),
                            Optional.empty()),
                    new ComponentStatus("historian", ComponentState.FAILED, Instant.parse("2026-01-01T00:00:02Z"),
                            Optional.of("disk full")));
        }
    }

    static final SettableStatus status = new SettableStatus();
    static final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    static final HttpClient http = HttpClient.newHttpClient();
    static ConsoleServer server;

    @BeforeAll
    static void start() {
        Counter.builder("test_items_total").register(registry).increment(3);
        server = new ConsoleServer(new HttpConfig("127.0.0.1", 0), status, registry,
                Clock.fixed(Instant.parse("2026-01-01T00:01:00Z"), java.time.ZoneOffset.UTC));
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthIsServiceUnavailableUntilTheGatewayIsReady() throws Exception {
        status.readiness = Readiness.STARTING;
        HttpResponse<String> starting = get("/health");
        assertThat(starting.statusCode()).isEqualTo(503);
        assertThat(starting.body()).contains("\"status\":\"STARTING\"");

        status.readiness = Readiness.READY;
        HttpResponse<String> ready = get("/health");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));

        status.readiness = Readiness.STOPPING;
        assertThat(get("/health").statusCode()).isEqualTo(503);
    }

    @Test
    void healthReportsEveryComponentWithIsoTimesAndUptime() throws Exception {
        status.readiness = Readiness.READY;
        String body = get("/health").body();
        assertThat(body)
                .contains("\"name\":\"Test gateway\"", "\"version\":\"1.2.3\"", "\"uptimeSeconds\":60")
                .contains("\"startedAt\":\"2026-01-01T00:00:00Z\"")
                .contains("{\"name\":\"tag-bus\",\"state\":\"RUNNING\",\"since\":\"2026-01-01T00:00:01Z\",\"error\":null}")
                .contains("\"error\":\"disk full\"");
    }

    @Test
    void metricsServesPrometheusText() throws Exception {
        HttpResponse<String> response = get("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain"));
        assertThat(response.body()).contains("# TYPE test_items_total counter", "test_items_total 3.0");
    }

    @Test
    void rootServesTheConsoleEntryPage() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Qubiq gateway</title>", "/app.js");
        assertThat(get("/app.js").body()).contains("fetch(\"/health\"");
    }

    @Test
    void unknownPathIsNotFound() throws Exception {
        assertThat(get("/no-such-page").statusCode()).isEqualTo(404);
    }
}
