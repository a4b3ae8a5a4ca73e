package io.qubiq.app.config;

import io.qubiq.config.ConfigException;
import io.qubiq.config.edit.YamlEdit;
import io.qubiq.console.ConfigAccess;
import io.qubiq.console.ConfigChanges.Invalid;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a change is refused with nothing written ({@link Invalid}): every problem at the key path the file
 * names it by; and the one refusal decided on the edit itself, a put to a key whose value comes from the
 * environment. Stateless.
 */
final class ChangeRefusals {

    private ChangeRefusals() {
    }

    /** The loader's problems, each at its key, line and column. */
    static Invalid invalid(String error, ConfigException e) {
        return new Invalid(error, e.problems().stream()
                .map(p -> new ConfigAccess.Problem(p.keyPath(), p.message(), p.line(), p.column())).toList());
    }

    /** One problem, at {@code key}. */
    static Invalid atKey(String key, String message) {
        return new Invalid(message, List.of(new ConfigAccess.Problem(key, message, 0, 0)));
    }

    /** A put the API may not make: a key whose value comes from the environment. */
    static Optional<Invalid> fromEnvironment(LoadedConfig raw, YamlEdit.Put put) {
        String key = put.path().toString();
        for (Map.Entry<String, List<String>> env : raw.fromEnvironment().entrySet()) {
            if (related(key, env.getKey())) {
                String variables = env.getValue().stream().map(v -> "${" + v + "}").collect(Collectors.joining(", "));
                return Optional.of(atKey(env.getKey(), "'" + env.getKey() + "' takes its value from the environment ("
                        + variables + "): change the variable, not the key"));
            }
        }
        return Optional.empty();
    }

    /** Whether one key path is the other or lies under it. */
    private static boolean related(String a, String b) {
        return a.equals(b) || under(a, b) || under(b, a);
    }

    private static boolean under(String inner, String outer) {
        return inner.startsWith(outer) && (inner.charAt(outer.length()) == '.' || inner.charAt(outer.length()) == '[');
    }
}
