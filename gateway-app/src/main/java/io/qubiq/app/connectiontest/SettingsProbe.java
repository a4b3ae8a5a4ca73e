package io.qubiq.app.connectiontest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.config.ConfigException;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConnectionTests;
import io.qubiq.console.RequestFailure;
import io.qubiq.core.connector.ProbeResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * "Test connection" for one family of connections (those under {@code devices}, those under
 * {@code outbound}), everything but what the family decides ({@link Family}): a running connection named
 * alone is probed with its configuration as it runs; settings sent as JSON are bound as the entry
 * {@code <family>.<id>} by the configuration loader (so the problems and their key paths are the file's),
 * with masked secrets taken from the running connection of that id ({@link MaskedSecrets}); a masked secret
 * left over, or settings that are not a valid section, are answered {@link ConnectionTests.Invalid} and
 * nothing is probed. The family's probe runs bounded by a timeout ({@link BoundedProbe}). Nothing is added
 * to or changed in the running gateway.
 *
 * <p>Thread-safe: each probe runs on a thread of its own; the running configuration is read through the
 * supplier at each call.
 *
 * @param <C> the record under {@code <family>.<id>}
 */
public final class SettingsProbe<C> implements ConnectionTests {

    /** How long a probe may take. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String NEW_ID = "test";
    private static final String FILE_NAME = "request body";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What one family of connections decides for its test.
     *
     * @param key     the family's section of the configuration, where its key paths start: {@code devices}
     * @param noun    a connection of the family in an answer: {@code device connection}
     * @param binding the family's entries bound from configuration text by the loader
     * @param kind    the section key of a connection's kind, as the answer names it: {@code opcua}
     * @param probe   probes a connection's settings
     */
    public record Family<C>(String key, String noun, Binding<C> binding, Function<C, String> kind, Probe<C> probe) {
    }

    /** Binds configuration text holding one section of the family. */
    @FunctionalInterface
    public interface Binding<C> {

        /** The entries under the family's key of {@code text}; problems name {@code fileName}. */
        Map<String, C> bind(String fileName, String text, Map<String, String> environment) throws ConfigException;
    }

    /** Probes a connection's settings; see {@link BoundedProbe} for what a throw means. */
    @FunctionalInterface
    public interface Probe<C> {

        /** The findings for connection {@code id} with the settings {@code config}, within about {@code timeout}. */
        ProbeResult probe(String id, C config, Duration timeout) throws Exception;
    }

    private final Family<C> family;
    private final Supplier<Map<String, C>> running;
    private final Supplier<Map<String, String>> environment;
    private final BoundedProbe probes;

    /**
     * @param running     the family's connections as they run now
     * @param environment the variables {@code ${VARIABLE}} references in the settings expand from
     */
    public SettingsProbe(Family<C> family, Supplier<Map<String, C>> running, Supplier<Map<String, String>> environment,
                         BoundedProbe probes) {
        this.family = family;
        this.running = running;
        this.environment = environment;
        this.probes = probes;
    }

    @Override
    public Outcome test(Optional<String> id, Optional<Object> section) {
        Map<String, C> now = running.get();
        if (section.isEmpty()) {
            String name = id.orElseThrow(() -> new RequestFailure.InvalidRequest("name a connection or send its settings"));
            C config = Optional.ofNullable(now.get(name)).orElseThrow(() -> new RequestFailure.NotFound(
                    "no " + family.noun() + " '" + name + "'; the connections are " + now.keySet()));
            return probe(name, config);
        }
        String name = id.filter(s -> !s.isBlank()).orElse(NEW_ID);
        Object settings = Optional.ofNullable(now.get(name))
                .map(config -> MaskedSecrets.restore(section.get(), config)).orElse(section.get());
        Optional<String> masked = MaskedSecrets.masked(settings, family.key() + "." + name);
        if (masked.isPresent()) {
            String message = "a masked secret (***) can only be tested under the id of a configured connection that"
                    + " holds it; type the value or leave the key out";
            return new Invalid(message, List.of(new ConfigAccess.Problem(masked.get(), message, 0, 0)));
        }
        C config;
        try {
            String text = JSON.writeValueAsString(Map.of(family.key(), Map.of(name, settings)));
            config = family.binding().bind(FILE_NAME, text, environment.get()).get(name);
        } catch (ConfigException e) {
            return new Invalid("the settings are not a valid connection; nothing was probed", e.problems().stream()
                    .map(p -> new ConfigAccess.Problem(p.keyPath(), p.message(), 0, 0)).toList());
        } catch (JsonProcessingException e) {
            throw new RequestFailure.InvalidRequest("the settings cannot be read: " + e.getOriginalMessage());
        }
        return probe(name, config);
    }

    private Tested probe(String id, C config) {
        String kind = family.kind().apply(config);
        ProbeResult result = probes.run(id, () -> family.probe().probe(id, config, probes.timeout()));
        return Tested.of(id, kind, result);
    }
}
