package io.qubiq.connector.opcua;

import java.io.IOException;

/**
 * Where the password of a {@link PkiDirectory}'s private key store ({@code own/instance.p12}) comes from.
 * The gateway passes one per installation, generated on first use and kept in its secrets store; the
 * connector never chooses it. Asked for only when a secured connection opens its PKI directory.
 */
@FunctionalInterface
public interface KeyStorePassword {

    /** The password; a fresh array the caller may clear. */
    char[] password() throws IOException;

    /**
     * The fixed password every key store had before the password was per installation: what
     * {@link PkiDirectory#open} migrates an older key store from, and the password of connectors built
     * without one (tests, benchmarks).
     */
    static KeyStorePassword legacy() {
        return () -> PkiDirectory.LEGACY_PASSWORD.clone();
    }
}
