package io.qubiq.app.config;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where a gateway's configuration comes from: a file the operator names, or the built-in demo
 * ({@code config/demo.yaml}, packaged into the jar at build time so {@code qubiq demo} works from
 * anywhere). Environment variables are expanded from the real environment.
 */
public final class ConfigSource {

    public static final String DEMO_RESOURCE = "/qubiq/demo.yaml";
    public static final String DEMO_NAME = "built-in demo (config/demo.yaml)";

    private ConfigSource() {
    }

    public static GatewayConfig fromFile(Path file) throws ConfigException {
        return ConfigLoader.load(file, GatewayConfig.class, System.getenv());
    }

    /** The file with its revision (the SHA-256 of its bytes) and the keys the environment gave. */
    public static LoadedConfig loadFile(Path file, Map<String, String> env) throws ConfigException {
        return LoadedConfig.bind(file.toString(), "sha256", ConfigLoader.readText(file), env);
    }

    public static GatewayConfig demo() throws ConfigException {
        return demo(System.getenv());
    }

    static GatewayConfig demo(Map<String, String> env) throws ConfigException {
        return loadDemo(env).config();
    }

    /** The built-in demo, its revision {@code embedded-demo:<sha256 of its text>}. */
    public static LoadedConfig loadDemo(Map<String, String> env) throws ConfigException {
        try (InputStream in = ConfigSource.class.getResourceAsStream(DEMO_RESOURCE)) {
            if (in == null) {
                throw new ConfigException(List.of(new ConfigProblem(DEMO_NAME, 0, 0, "",
                        "the demo configuration is missing from the application jar; rebuild with ./qubiq build")));
            }
            String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return LoadedConfig.bind(DEMO_NAME, "embedded-demo", yaml, env);
        } catch (IOException e) {
            throw new ConfigException(List.of(new ConfigProblem(DEMO_NAME, 0, 0, "",
                    "cannot read the demo configuration: " + e.getMessage())));
        }
    }
}
