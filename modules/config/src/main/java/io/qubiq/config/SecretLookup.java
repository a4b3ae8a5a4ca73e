package io.qubiq.config;

import java.util.Optional;

/**
 * Where {@code ${secret:NAME}} references in a configuration file take their value from (the gateway's
 * secrets store, {@link io.qubiq.config.secret.SecretStore}). Implementations are safe to call from any
 * thread.
 */
@FunctionalInterface
public interface SecretLookup {

    /** The secret called {@code name}, or empty when there is none. */
    Optional<String> secret(String name);

    /** No secrets: every {@code ${secret:NAME}} reference is a problem. */
    static SecretLookup none() {
        return name -> Optional.empty();
    }
}
