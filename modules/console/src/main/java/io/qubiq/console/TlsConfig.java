package io.qubiq.console;

import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Secret;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** HTTPS for the console and API: the server's key and certificate in a keystore. */
@Doc("Serve the console and API over HTTPS only, with the key and certificate in this keystore.")
public record TlsConfig(
        @Doc("The keystore file (PKCS12 or JKS) holding the server's private key and certificate chain.")
        String keystore,

        @Doc("The keystore's password (normally ${QUBIQ_TLS_KEYSTORE_PASSWORD} from the environment).")
        @Secret
        String keystorePassword,

        @Doc("The keystore's format: pkcs12 or jks.")
        @Default("pkcs12")
        String keystoreType) implements ConfigChecked {

    private static final Set<String> TYPES = Set.of("pkcs12", "jks");

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        if (!TYPES.contains(keystoreType.toLowerCase(Locale.ROOT))) {
            violations.add(new Violation("keystore_type", "must be pkcs12 or jks, got '" + keystoreType + "'"));
        }
        try {
            if (!Files.isReadable(Path.of(keystore))) {
                violations.add(new Violation("keystore", "cannot read '" + keystore + "' (missing or not readable)"));
            }
        } catch (InvalidPathException e) {
            violations.add(new Violation("keystore", "not a valid path: " + e.getMessage()));
        }
        return violations;
    }
}
