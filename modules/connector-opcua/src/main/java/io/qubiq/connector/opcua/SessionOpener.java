package io.qubiq.connector.opcua;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;

/**
 * One connection attempt: opens the PKI directory the first time a secured policy needs it, builds
 * a Milo client ({@link MiloClientFactory}) and connects it, bounded by twice the request timeout
 * (Milo keeps retrying some failures, such as an untrusted server certificate, inside its connect).
 * A failed attempt leaves no client behind. Owned by the connector thread.
 */
final class SessionOpener {

    private final String connectionId;
    private final OpcUaConnectionConfig config;
    private final KeyStorePassword keyStorePassword;
    private Optional<PkiDirectory> pki = Optional.empty();

    SessionOpener(String connectionId, OpcUaConnectionConfig config, KeyStorePassword keyStorePassword) {
        this.connectionId = connectionId;
        this.config = config;
        this.keyStorePassword = keyStorePassword;
    }

    /** The certificate directory, once a secured connection attempt (or {@link #pkiDirectory()}) has opened it. */
    synchronized Optional<PkiDirectory> pki() {
        return pki;
    }

    /**
     * The certificate directory of a secured connection, opened (its folders created and the
     * instance certificate generated) on first use; empty with SecurityPolicy None, which uses no
     * certificates. Safe from any thread.
     */
    synchronized Optional<PkiDirectory> pkiDirectory() throws IOException, GeneralSecurityException {
        if (config.secured() && pki.isEmpty()) {
            pki = Optional.of(PkiDirectory.open(pkiDir(config, connectionId), MiloClientFactory.applicationUri(connectionId),
                    keyStorePassword));
        }
        return pki;
    }

    /** A connected client whose session events go to {@code listener}; throws what the attempt failed with. */
    OpcUaClient open(SessionActivityListener listener) throws Exception {
        MiloClientFactory factory = new MiloClientFactory(connectionId, config, pkiDirectory());
        OpcUaClient client = factory.create();
        try {
            factory.requireTokenPolicy(client.getConfig().getEndpoint());
            client.addSessionActivityListener(listener);
            client.connectAsync().get(config.requestTimeoutMs() * 2, TimeUnit.MILLISECONDS);
            return client;
        } catch (Exception e) {
            client.disconnectAsync();
            throw e;
        }
    }

    /** What went wrong with an attempt, with the operator's next step for an untrusted certificate. */
    String explain(Exception failure) {
        Optional<StatusCode> status = UaException.extractStatusCode(failure);
        if (config.identity() instanceof OpcUaIdentity.X509 x509 && status.map(SessionOpener::identityRefused).orElse(false)) {
            return "cannot connect to " + config.endpointUrl() + ": the server refused the x509 user identity ("
                    + x509.certificate() + "): " + FailureText.describe(failure) + "; the server must trust the"
                    + " user certificate";
        }
        boolean security = UaException.extractStatusCode(failure).map(StatusCode::isSecurityError).orElse(false);
        String hint = config.secured() && security ? "; if the server certificate is not trusted yet, it is in "
                + pkiDir(config, connectionId).resolve("rejected") + ": trust it to connect (POST"
                + " /api/v1/connections/" + connectionId + "/certificates/<thumbprint>/trust)" : "";
        return "cannot connect to " + config.endpointUrl() + ": " + FailureText.describe(failure) + hint;
    }

    private static boolean identityRefused(StatusCode status) {
        long code = status.getValue() & 0xFFFF0000L;
        return code == StatusCodes.Bad_IdentityTokenRejected || code == StatusCodes.Bad_IdentityTokenInvalid
                || code == StatusCodes.Bad_UserAccessDenied;
    }

    /** The configured PKI directory, or {@code pki/<connection id>} under the working directory when unset. */
    static java.nio.file.Path pkiDir(OpcUaConnectionConfig config, String connectionId) {
        return config.pkiDir().orElse(java.nio.file.Path.of("pki", connectionId));
    }
}
