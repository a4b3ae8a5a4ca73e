package io.qubiq.app.config;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.config.secret.SecretStore;
import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.OwnerOnly;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * Where a gateway's configuration comes from: a file the operator names, or the built-in demo
 * ({@code config/demo.yaml}, packaged into the jar at build time so {@code qubiq demo} works from
 * anywhere). Environment variables are expanded from the real environment. The demo runs from a copy in the
 * data directory ({@link #demoInDataDirectory}), so its configuration can be changed over the API too.
 */
public final class ConfigSource {

    public static final String DEMO_RESOURCE = "/qubiq/demo.yaml";
    public static final String DEMO_NAME = "built-in demo (config/demo.yaml)";
    /** The demo's file in the data directory. */
    public static final String DEMO_FILE = "demo.yaml";

    private ConfigSource() {
    }

    /** The file as a gateway with the data directory {@code dataRoot} would run it (its secrets from there). */
    public static GatewayConfig fromFile(Path file, Path dataRoot) throws ConfigException {
        return loadFile(file, System.getenv(), dataRoot).config();
    }

    /** The file, for files that hold no {@code ${secret:NAME}} reference (those are problems here). */
    public static GatewayConfig fromFile(Path file) throws ConfigException {
        return ConfigLoader.load(file, GatewayConfig.class, System.getenv());
    }

    /**
     * The file with its revision (the SHA-256 of its bytes), the keys the environment gave, and its
     * {@code ${secret:NAME}} references resolved in the secrets store of the data directory {@code dataRoot}
     * (which need not exist yet: nothing is created).
     */
    public static LoadedConfig loadFile(Path file, Map<String, String> env, Path dataRoot) throws ConfigException {
        SecretStore secrets = secrets(dataRoot);
        return LoadedConfig.bind(file.toString(), "sha256", ConfigLoader.readText(file), env, secrets).inFile(file);
    }

    /** The secrets store of the data directory {@code dataRoot}; a store that cannot be read is a problem. */
    static SecretStore secrets(Path dataRoot) throws ConfigException {
        Path dir = dataRoot.resolve(SecretStore.DIRECTORY);
        try {
            return SecretStore.open(dir, FileOps.system());
        } catch (IOException e) {
            throw new ConfigException(List.of(new ConfigProblem(dir.toString(), 0, 0, "",
                    "cannot open the secrets store: " + e.getMessage())));
        }
    }

    /**
     * The value of a secret the gateway generates for itself ({@link SecretStore#GENERATED}) in the secrets
     * store of the data directory {@code dataRoot}: made and kept on first use.
     */
    public static String generatedSecret(Path dataRoot, String name) throws IOException {
        return SecretStore.open(dataRoot.resolve(SecretStore.DIRECTORY), FileOps.system()).generated(name);
    }

    public static GatewayConfig demo() throws ConfigException {
        return demo(System.getenv());
    }

    static GatewayConfig demo(Map<String, String> env) throws ConfigException {
        return loadDemo(env).config();
    }

    /** The built-in demo, its revision {@code embedded-demo:<sha256 of its text>}. */
    public static LoadedConfig loadDemo(Map<String, String> env) throws ConfigException {
        return LoadedConfig.bind(DEMO_NAME, "embedded-demo", demoText(), env);
    }

    /** Whether {@code loaded} is the built-in demo as packaged (not yet a file in a data directory). */
    public static boolean isPackagedDemo(LoadedConfig loaded) {
        return loaded.file().isEmpty() && loaded.revision().startsWith("embedded-demo:");
    }

    /**
     * The demo as a file of the data directory, {@value #DEMO_FILE}, so it can be changed like any
     * configuration file: written from the built-in demo when the data directory has none yet (temp file,
     * then rename), read from there every start after, including the changes made to it.
     */
    public static LoadedConfig demoInDataDirectory(Path dataRoot, Map<String, String> env) throws ConfigException {
        Path file = dataRoot.resolve(DEMO_FILE);
        if (!Files.exists(file)) {
            Path tmp = dataRoot.resolve(DEMO_FILE + ".tmp");
            try {
                Files.deleteIfExists(tmp);
                Files.writeString(OwnerOnly.createFile(tmp), demoText(), StandardCharsets.UTF_8);
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new ConfigException(List.of(new ConfigProblem(file.toString(), 0, 0, "",
                        "cannot write the demo configuration into the data directory: " + e.getMessage())));
            }
        }
        return loadFile(file, env, dataRoot);
    }

    private static String demoText() throws ConfigException {
        try (InputStream in = ConfigSource.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new ConfigException(List.of(new ConfigProblem(DEMO_NAME, 0, 0, "",
                        "the demo configuration is missing from the application jar; rebuild with ./qubiq build")));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(List.of(new ConfigProblem(DEMO_NAME, 0, 0, "",
                    "cannot read the demo configuration: " + e.getMessage())));
        }
    }
}
