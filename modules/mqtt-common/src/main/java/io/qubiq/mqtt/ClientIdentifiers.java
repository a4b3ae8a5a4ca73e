package io.qubiq.mqtt;

import io.qubiq.core.config.ConfigChecked.Violation;
import java.util.Optional;

/**
 * MQTT client identifiers: a derived one keeps only letters, digits, {@code _}, {@code .} and
 * {@code -} (every broker accepts those), and a configured one must not be blank. Stateless.
 */
public final class ClientIdentifiers {

    private ClientIdentifiers() {
    }

    /** {@code base} with every other character replaced by {@code _}. */
    public static String derived(String base) {
        return base.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    /** The problem with a configured {@code client_id}, if any. */
    public static Optional<Violation> violation(Optional<String> configured) {
        return configured.filter(String::isBlank)
                .map(id -> new Violation("client_id", "must not be empty; leave it out to derive one"));
    }
}
