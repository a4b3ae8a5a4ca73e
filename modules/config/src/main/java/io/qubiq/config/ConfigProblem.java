package io.qubiq.config;

/**
 * One thing wrong with a configuration file, located precisely enough for an editor to jump to it.
 * Formats as {@code config/gateway.yaml:12:5: http.port: expected an integer between 1 and 65535,
 * got "abc"}. {@code line} and {@code column} are 1-based; 0 when the problem has no place in the
 * file (it could not be read). {@code keyPath} uses dots for keys and {@code [i]} for list items;
 * it is empty for problems that belong to no key (a YAML syntax error).
 */
public record ConfigProblem(String file, int line, int column, String keyPath, String message) {

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(file);
        if (line > 0) {
            out.append(':').append(line).append(':').append(column);
        }
        out.append(": ");
        if (!keyPath.isEmpty()) {
            out.append(keyPath).append(": ");
        }
        return out.append(message).toString();
    }
}
