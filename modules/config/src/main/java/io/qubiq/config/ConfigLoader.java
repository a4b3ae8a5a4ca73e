package io.qubiq.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Loads a YAML configuration file into a root record, or fails with every problem at once.
 *
 * <pre>{@code
 * GatewayConfig config = ConfigLoader.load(Path.of("config/gateway.yaml"), GatewayConfig.class, System.getenv());
 * }</pre>
 *
 * Declaration mistakes in the record classes themselves (an unsupported component type, a
 * {@code @Default} that is not YAML) are bugs, not configuration problems: they throw
 * {@link IllegalArgumentException} whatever the file says. Stateless; safe to call from any thread.
 */
public final class ConfigLoader {

    private ConfigLoader() {
    }

    /**
     * Reads {@code file} (UTF-8) and binds it to {@code root}, expanding {@code ${VAR}} from {@code env}.
     * Problems name the file as {@code file.toString()} shows it. An empty file binds all defaults.
     *
     * @throws ConfigException listing every problem: unreadable file, YAML syntax, unknown or
     *     duplicate keys, wrong types, values out of range, missing keys or environment variables,
     *     cross-key violations
     */
    public static <R extends Record> R load(Path file, Class<R> root, Map<String, String> env) throws ConfigException {
        return parse(file.toString(), readText(file), root, env);
    }

    /**
     * The file's text (UTF-8), for callers that keep it (to identify a revision) before {@link #bind}ing it.
     *
     * @throws ConfigException ({@link ConfigException#unreadable()}) naming why the file cannot be read
     */
    public static String readText(Path file) throws ConfigException {
        String name = file.toString();
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw unreadable(name, "cannot read the configuration file: it does not exist (working directory "
                    + Path.of("").toAbsolutePath() + ")");
        } catch (CharacterCodingException e) {
            throw unreadable(name, "cannot read the configuration file: it is not UTF-8 text");
        } catch (IOException e) {
            throw unreadable(name, "cannot read the configuration file: " + e);
        }
    }

    /** As {@link #load(Path, Class, Map)}, with the process environment. */
    public static <R extends Record> R load(Path file, Class<R> root) throws ConfigException {
        return load(file, root, System.getenv());
    }

    /**
     * Binds YAML text to {@code root}; {@code fileName} is only used in problem reports. For
     * configuration that does not come from a file, and for tests.
     */
    public static <R extends Record> R parse(String fileName, String yaml, Class<R> root, Map<String, String> env)
            throws ConfigException {
        return bind(fileName, yaml, root, env).config();
    }

    /**
     * As {@link #parse}, and also answers which keys took their value from {@code ${VARIABLE}}
     * references: what an API needs to show those keys read-only, naming the variable.
     */
    public static <R extends Record> BoundConfig<R> bind(String fileName, String yaml, Class<R> root,
                                                         Map<String, String> env) throws ConfigException {
        return bind(fileName, yaml, root, env, SecretLookup.none());
    }

    /**
     * As {@link #bind(String, String, Class, Map)}, taking the value of each {@code ${secret:NAME}} reference
     * from {@code secrets}; a name {@code secrets} does not know is a problem at that key.
     */
    public static <R extends Record> BoundConfig<R> bind(String fileName, String yaml, Class<R> root,
                                                         Map<String, String> env, SecretLookup secrets)
            throws ConfigException {
        DeclarationCheck.verify(root);
        ProblemCollector problems = new ProblemCollector(fileName);
        Optional<YamlValue> document = new YamlReader().read(yaml, problems);
        if (problems.count() > 0 && document.isEmpty()) {
            throw new ConfigException(problems.sorted(), true);
        }
        EnvExpander expander = new EnvExpander(name -> Optional.ofNullable(env.get(name)), secrets);
        ValueBinder binder = new ValueBinder(expander, problems);
        Optional<Object> bound = binder.bindRoot(document, root);
        if (problems.count() > 0 || bound.isEmpty()) {
            throw new ConfigException(problems.sorted());
        }
        return new BoundConfig<>(root.cast(bound.get()), binder.fromEnvironment(), binder.fromSecrets());
    }

    private static ConfigException unreadable(String file, String message) {
        ProblemCollector problems = new ProblemCollector(file);
        problems.addUnplaced(message);
        return new ConfigException(problems.sorted(), true);
    }
}
