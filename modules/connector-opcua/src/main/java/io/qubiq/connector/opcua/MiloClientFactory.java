package io.qubiq.connector.opcua;

import java.util.List;
import java.util.Optional;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

/**
 * Builds a Milo client for a connection: discovers the server's endpoints, picks the one with the
 * configured policy and mode, and sets timeouts, identity and (for secured policies) the instance
 * certificate and trust list from the {@link PkiDirectory}. Stateless apart from the PKI.
 */
final class MiloClientFactory {

    private final String connectionId;
    private final OpcUaConnectionConfig config;
    private final Optional<PkiDirectory> pki;

    MiloClientFactory(String connectionId, OpcUaConnectionConfig config, Optional<PkiDirectory> pki) {
        this.connectionId = connectionId;
        this.config = config;
        this.pki = pki;
    }

    static String applicationUri(String connectionId) {
        return "urn:qubiq:gateway:opcua:" + connectionId;
    }

    /** A client ready to connect; discovery talks to the server, so this fails while it is down. */
    OpcUaClient create() throws UaException {
        return OpcUaClient.create(config.endpointUrl(), this::selectEndpoint,
                transport -> transport.setConnectTimeout(uint(Math.min(config.requestTimeoutMs(), Integer.MAX_VALUE))),
                builder -> {
                    builder.setApplicationName(LocalizedText.english("Qubiq gateway (" + connectionId + ")"))
                            .setApplicationUri(applicationUri(connectionId))
                            .setProductUri("urn:qubiq:gateway")
                            .setRequestTimeout(uint(config.requestTimeoutMs()))
                            .setSessionTimeout(uint(config.sessionTimeoutMs()))
                            .setIdentityProvider(identityProvider());
                    pki.ifPresent(p -> builder.setKeyPair(p.keyPair())
                            .setCertificate(p.certificate())
                            .setCertificateChain(new java.security.cert.X509Certificate[]{p.certificate()})
                            .setCertificateValidator(p.validator()));
                });
    }

    private Optional<EndpointDescription> selectEndpoint(List<EndpointDescription> endpoints) {
        String policyUri = config.securityPolicy().policy().getUri();
        return endpoints.stream()
                .filter(e -> policyUri.equals(e.getSecurityPolicyUri()))
                .filter(e -> e.getSecurityMode() == config.securityMode().mode())
                .findFirst();
    }

    private IdentityProvider identityProvider() {
        if (config.identity() instanceof OpcUaIdentity.Username user) {
            return new UsernameProvider(user.username(), user.password());
        }
        return new AnonymousProvider();
    }
}
