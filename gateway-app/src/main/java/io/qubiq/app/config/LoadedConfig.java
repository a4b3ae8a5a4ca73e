package io.qubiq.app.config;

import io.qubiq.config.revision.ConfigRevisions;
import io.qubiq.config.BoundConfig;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.SecretLookup;
import io.qubiq.config.secret.SecretStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The configuration a gateway runs with and where it came from: the bound record (command-line
 * overrides applied), the source as named to the operator, the revision of the text it was read
 * from, the environment its {@code ${VARIABLE}} references were expanded from and the keys that
 * took their value from there, and the secrets store its {@code ${secret:NAME}} references were
 * resolved in and the keys that did. What the configuration API reports and validates against.
 * Immutable but for the store; {@link #toString()} names only the source and revision, since the rest
 * holds secrets.
 *
 * @param revision    {@code sha256:<hex>} of the file's bytes, {@code embedded-demo:<hex>} for the
 *                    built-in demo, {@code unrecorded} when the text is not known (tests that bind
 *                    a record themselves)
 * @param overrides   what the command line changes on top of the file ({@code --http-port}); applied
 *                    to {@code config} already, and to every candidate compared with it
 * @param file        the file the text was read from, which the configuration API writes; empty for the
 *                    built-in demo as packaged and for records bound in memory
 */
public record LoadedConfig(GatewayConfig config, String source, String revision, Map<String, String> environment,
                           Map<String, List<String>> fromEnvironment, SecretStore secrets,
                           Map<String, List<String>> fromSecrets, UnaryOperator<GatewayConfig> overrides,
                           Optional<Path> file) {

    public static final String UNRECORDED = "unrecorded";

    public LoadedConfig {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(revision, "revision");
        environment = Map.copyOf(environment);
        fromEnvironment = Map.copyOf(fromEnvironment);
        Objects.requireNonNull(secrets, "secrets");
        fromSecrets = Map.copyOf(fromSecrets);
        Objects.requireNonNull(overrides, "overrides");
        Objects.requireNonNull(file, "file");
    }

    /**
     * Binds {@code text}; problems name it as {@code source}.
     *
     * @param revisionPrefix {@code sha256} for a file, {@code embedded-demo} for the built-in one
     */
    public static LoadedConfig bind(String source, String revisionPrefix, String text, Map<String, String> env)
            throws ConfigException {
        return bind(source, revisionPrefix, text, env, SecretStore.none());
    }

    /** As {@link #bind(String, String, String, Map)}, with {@code ${secret:NAME}} references resolved in {@code secrets}. */
    public static LoadedConfig bind(String source, String revisionPrefix, String text, Map<String, String> env,
                                    SecretStore secrets) throws ConfigException {
        return bind(source, revisionPrefix, text, env, secrets, secrets);
    }

    /**
     * As {@link #bind(String, String, String, Map, SecretStore)}, resolving references in {@code lookup} (the
     * store and secrets about to be kept in it) while the result names {@code secrets}.
     */
    static LoadedConfig bind(String source, String revisionPrefix, String text, Map<String, String> env,
                             SecretStore secrets, SecretLookup lookup) throws ConfigException {
        BoundConfig<GatewayConfig> bound = ConfigLoader.bind(source, text, GatewayConfig.class, env, lookup);
        return new LoadedConfig(bound.config(), source, revisionPrefix + ":" + sha256(text), env,
                bound.fromEnvironment(), secrets, bound.fromSecrets(), UnaryOperator.identity(), Optional.empty());
    }

    /** A record bound elsewhere: no text, no revision, no environment, no secrets. */
    public static LoadedConfig unrecorded(GatewayConfig config) {
        return new LoadedConfig(config, "(bound in memory)", UNRECORDED, Map.of(), Map.of(), SecretStore.none(),
                Map.of(), UnaryOperator.identity(), Optional.empty());
    }

    /** The same configuration listening on another HTTP port (the --http-port option). */
    public LoadedConfig withHttpPort(int port) {
        UnaryOperator<GatewayConfig> withPort = c -> c.withHttpPort(port);
        UnaryOperator<GatewayConfig> both = c -> withPort.apply(overrides.apply(c));
        return new LoadedConfig(withPort.apply(config), source, revision, environment, fromEnvironment, secrets,
                fromSecrets, both, file);
    }

    /** The same configuration, read from {@code path} (which the configuration API then writes). */
    public LoadedConfig inFile(Path path) {
        return new LoadedConfig(config, source, revision, environment, fromEnvironment, secrets, fromSecrets, overrides,
                Optional.of(path));
    }

    /**
     * A configuration bound from the same file as this one, with this one's command-line overrides applied:
     * what the gateway would run after a restart with the same command line.
     */
    public LoadedConfig successor(LoadedConfig boundText) {
        return new LoadedConfig(overrides.apply(boundText.config), boundText.source, boundText.revision, environment,
                boundText.fromEnvironment, secrets, boundText.fromSecrets, overrides, file);
    }

    /** Source and revision only: the record and the environment hold secrets, so they are never printed. */
    @Override
    public String toString() {
        return "LoadedConfig[" + source + ", " + revision + "]";
    }

    /** The hex SHA-256 of the text's UTF-8 bytes (the file's bytes for a file read as UTF-8): a revision's token. */
    static String sha256(String text) {
        return ConfigRevisions.token(text.getBytes(StandardCharsets.UTF_8));
    }
}
