package io.qubiq.config;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;

/** Test shorthand: bind YAML text to {@link SampleConfig} with a fixed environment. */
final class SampleYaml {

    static final String FILE = "config/gateway.yaml";
    static final Map<String, String> ENV = Map.of("PLC_HOST", "plc.local", "ADMIN_PASSWORD", "s3cret");

    private SampleYaml() {
    }

    static SampleConfig bind(String yaml) throws ConfigException {
        return bind(yaml, ENV);
    }

    static SampleConfig bind(String yaml, Map<String, String> env) throws ConfigException {
        return ConfigLoader.parse(FILE, yaml, SampleConfig.class, env);
    }

    /** The formatted problems of a file that must not bind. */
    static List<String> problems(String yaml) {
        return problems(yaml, ENV);
    }

    static List<String> problems(String yaml, Map<String, String> env) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> bind(yaml, env));
        if (e == null) {
            throw new AssertionError("expected configuration problems, but the file bound:\n" + yaml);
        }
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    /** The smallest valid file: the one required key. */
    static String minimal(String more) {
        return "buffer:\n  directory: /var/lib/qubiq\n" + more;
    }
}
