package io.qubiq.connector.opcua;

import io.qubiq.core.error.ConfigurationException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.identity.X509IdentityProvider;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.enumerated.UserTokenType;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.UserTokenPolicy;

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

    /**
     * A client ready to connect; discovery talks to the server, so this fails while it is down.
     * Throws a {@link ConfigurationException} naming {@code identity.*} when the X.509 identity's
     * files are unusable.
     */
    OpcUaClient create() throws UaException, ConfigurationException {
        IdentityProvider identity = identityProvider();
        return OpcUaClient.create(config.endpointUrl(), this::selectEndpoint,
                transport -> transport.setConnectTimeout(uint(Math.min(config.requestTimeoutMs(), Integer.MAX_VALUE))),
                builder -> {
                    builder.setApplicationName(LocalizedText.english("Qubiq gateway (" + connectionId + ")"))
                            .setApplicationUri(applicationUri(connectionId))
                            .setProductUri("urn:qubiq:gateway")
                            .setRequestTimeout(uint(config.requestTimeoutMs()))
                            .setSessionTimeout(uint(config.sessionTimeoutMs()))
                            .setIdentityProvider(identity);
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

    private IdentityProvider identityProvider() throws ConfigurationException {
        if (config.identity() instanceof OpcUaIdentity.Username user) {
            return new UsernameProvider(user.username(), user.password());
        }
        if (config.identity() instanceof OpcUaIdentity.X509 x509) {
            UserCertificate user = UserCertificate.load(x509);
            return new X509IdentityProvider(user.chain(), user.key());
        }
        return new AnonymousProvider();
    }

    /**
     * Throws a {@link ConfigurationException} naming {@code identity} when the configured identity
     * is X.509 and {@code endpoint} offers no certificate user token policy (Milo would fail the
     * session activation with a vaguer message).
     */
    void requireTokenPolicy(EndpointDescription endpoint) throws ConfigurationException {
        if (!(config.identity() instanceof OpcUaIdentity.X509)) {
            return;
        }
        UserTokenPolicy[] policies = Optional.ofNullable(endpoint.getUserIdentityTokens()).orElse(new UserTokenPolicy[0]);
        if (Arrays.stream(policies).noneMatch(p -> p.getTokenType() == UserTokenType.Certificate)) {
            String offered = Arrays.stream(policies).map(p -> p.getTokenType().name().toLowerCase())
                    .distinct().collect(Collectors.joining(", "));
            throw new ConfigurationException("identity", "the server offers no X.509 (certificate) user token policy"
                    + " on the endpoint " + endpoint.getEndpointUrl() + " (" + config.securityPolicy().name().toLowerCase()
                    + "/" + config.securityMode().name().toLowerCase() + "); it offers: "
                    + (offered.isEmpty() ? "none" : offered));
        }
    }
}
