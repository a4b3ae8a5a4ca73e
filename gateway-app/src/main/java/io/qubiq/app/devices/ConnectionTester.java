package io.qubiq.app.devices;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.config.DeviceConfig;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConnectionTests;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.DeviceKind;
import io.qubiq.core.connector.ProbeResult;
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
 * "Test connection" over the device kinds: settings sent as JSON are bound as the entry
 * {@code devices.<id>} of a {@link TestedSection} by the configuration loader (so the problems and their
 * key paths are the file's), masked secrets are taken from the running connection of that id
 * ({@link MaskedSecrets}), and the connection's kind probes them ({@link DeviceKinds#probe}) on a thread
 * of its own, bounded by {@link #TIMEOUT} plus a grace period; a probe that overruns it is abandoned
 * (interrupted) and answered as unreachable. Nothing is added to the running gateway.
 *
 * <p>Thread-safe: each test runs on its own daemon thread; the running configuration is read through
 * the supplier at each call.
 */
public final class ConnectionTester implements ConnectionTests {

    /** How long a probe may take. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long GRACE_MS = 2000;
    private static final String NEW_ID = "test";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<Map<String, DeviceConfig>> running;
    private final Supplier<Map<String, String>> environment;
    private final DeviceKind.Context context;
    private final Duration timeout;
    private final ExecutorService probes = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "connection-test");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param running     the device connections as they run now
     * @param environment the variables {@code ${VARIABLE}} references in the settings expand from
     */
    public ConnectionTester(Supplier<Map<String, DeviceConfig>> running, Supplier<Map<String, String>> environment,
                            DeviceKind.Context context, Duration timeout) {
        this.running = running;
        this.environment = environment;
        this.context = context;
        this.timeout = timeout;
    }

    @Override
    public Outcome test(Optional<String> id, Optional<Object> section) {
        Map<String, DeviceConfig> now = running.get();
        if (section.isEmpty()) {
            String name = id.orElseThrow(() -> new RequestFailure.InvalidRequest("name a connection or send its settings"));
            DeviceConfig config = Optional.ofNullable(now.get(name)).orElseThrow(() -> new RequestFailure.NotFound(
                    "no device connection '" + name + "'; the connections are " + now.keySet()));
            return probe(name, config);
        }
        String name = id.filter(s -> !s.isBlank()).orElse(NEW_ID);
        Object settings = Optional.ofNullable(now.get(name))
                .map(config -> MaskedSecrets.restore(section.get(), config)).orElse(section.get());
        String prefix = "devices." + name;
        Optional<String> masked = MaskedSecrets.masked(settings, prefix);
        if (masked.isPresent()) {
            String message = "a masked secret (***) can only be tested under the id of a configured connection that"
                    + " holds it; type the value or leave the key out";
            return new Invalid(message, List.of(new ConfigAccess.Problem(masked.get(), message, 0, 0)));
        }
        DeviceConfig config;
        try {
            String text = JSON.writeValueAsString(Map.of("devices", Map.of(name, settings)));
            config = ConfigLoader.parse("request body", text, TestedSection.class, environment.get()).devices().get(name);
        } catch (ConfigException e) {
            return new Invalid("the settings are not a valid connection; nothing was probed", e.problems().stream()
                    .map(p -> new ConfigAccess.Problem(p.keyPath(), p.message(), 0, 0)).toList());
        } catch (JsonProcessingException e) {
            throw new RequestFailure.InvalidRequest("the settings cannot be read: " + e.getOriginalMessage());
        }
        return probe(name, config);
    }

    private Tested probe(String id, DeviceConfig config) {
        String kind = DeviceKinds.of(config).name();
        Future<ProbeResult> attempt = probes.submit(() -> DeviceKinds.probe(id, config, context, timeout));
        ProbeResult result;
        try {
            result = attempt.get(timeout.toMillis() + GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            attempt.cancel(true);
            result = ProbeResult.unreachable("no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw new RequestFailure.Fault("testing " + id + " failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RequestFailure.Fault("testing " + id + " was interrupted");
        }
        return Tested.of(id, kind, result);
    }
}
