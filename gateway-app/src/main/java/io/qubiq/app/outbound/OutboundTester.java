package io.qubiq.app.outbound;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.config.OutboundConfig;
import io.qubiq.app.devices.MaskedSecrets;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConnectionTests;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.ProbeResult;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * "Test connection" for outbound connections: settings sent as JSON are bound as the entry
 * {@code outbound.<id>} of a {@link TestedOutbound} by the configuration loader (problems carry the file's
 * key paths), masked secrets are taken from the running connection of that id, and a sink built by the
 * connection's kind answers its own probe ({@link Sink#probe}: the same check the connection monitor
 * runs) on a thread of its own, bounded by the timeout plus a grace period; the sink is closed afterwards.
 * Nothing is added to or changed in the running gateway.
 *
 * <p>Thread-safe: each test runs on its own daemon thread.
 */
public final class OutboundTester implements ConnectionTests {

    private static final long GRACE_MS = 2000;
    private static final String NEW_ID = "test";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<Map<String, OutboundConfig>> running;
    private final Supplier<Map<String, String>> environment;
    private final Duration timeout;
    private final Clock clock;
    private final ExecutorService probes = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "outbound-test");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param running     the outbound connections as they run now
     * @param environment the variables {@code ${VARIABLE}} references in the settings expand from
     */
    public OutboundTester(Supplier<Map<String, OutboundConfig>> running, Supplier<Map<String, String>> environment,
                          Duration timeout, Clock clock) {
        this.running = running;
        this.environment = environment;
        this.timeout = timeout;
        this.clock = clock;
    }

    @Override
    public Outcome test(Optional<String> id, Optional<Object> section) {
        Map<String, OutboundConfig> now = running.get();
        if (section.isEmpty()) {
            String name = id.orElseThrow(() -> new RequestFailure.InvalidRequest("name a connection or send its settings"));
            OutboundConfig config = Optional.ofNullable(now.get(name)).orElseThrow(() -> new RequestFailure.NotFound(
                    "no outbound connection '" + name + "'; the connections are " + now.keySet()));
            return probe(name, config);
        }
        String name = id.filter(s -> !s.isBlank()).orElse(NEW_ID);
        Object settings = Optional.ofNullable(now.get(name))
                .map(config -> MaskedSecrets.restore(section.get(), config)).orElse(section.get());
        Optional<String> masked = MaskedSecrets.masked(settings, "outbound." + name);
        if (masked.isPresent()) {
            String message = "a masked secret (***) can only be tested under the id of a configured connection that"
                    + " holds it; type the value or leave the key out";
            return new Invalid(message, List.of(new ConfigAccess.Problem(masked.get(), message, 0, 0)));
        }
        OutboundConfig config;
        try {
            String text = JSON.writeValueAsString(Map.of("outbound", Map.of(name, settings)));
            config = ConfigLoader.parse("request body", text, TestedOutbound.class, environment.get()).outbound()
                    .get(name);
        } catch (ConfigException e) {
            return new Invalid("the settings are not a valid connection; nothing was probed", e.problems().stream()
                    .map(p -> new ConfigAccess.Problem(p.keyPath(), p.message(), 0, 0)).toList());
        } catch (JsonProcessingException e) {
            throw new RequestFailure.InvalidRequest("the settings cannot be read: " + e.getOriginalMessage());
        }
        return probe(name, config);
    }

    private Tested probe(String id, OutboundConfig config) {
        String kind = OutboundKinds.of(config).name();
        long started = System.nanoTime();
        Future<ConnectionStatus> attempt = probes.submit(() -> {
            Sink<?> sink = OutboundConnections.sinkOf(OutboundKinds.of(config), id, config, clock);
            try {
                return sink.probe();
            } finally {
                sink.close();
            }
        });
        ProbeResult result;
        try {
            ConnectionStatus status = attempt.get(timeout.toMillis() + GRACE_MS, TimeUnit.MILLISECONDS);
            long latency = (System.nanoTime() - started) / 1_000_000;
            result = status.state() == ConnectionState.UP
                    ? ProbeResult.ok(ProbeResult.CertificateTrust.UNKNOWN, latency, "the destination answered")
                    : ProbeResult.unreachable(status.lastError().orElse("the destination did not answer"));
        } catch (TimeoutException e) {
            attempt.cancel(true);
            result = ProbeResult.unreachable("no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            result = ProbeResult.unreachable(String.valueOf(e.getCause().getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestFailure.Fault("testing " + id + " was interrupted");
        }
        return Tested.of(id, kind, result);
    }
}
