package io.qubiq.connector.opcua;

import io.qubiq.core.connector.ProbeResult;
import io.qubiq.core.connector.ProbeResult.CertificateTrust;
import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.util.CertificateUtil;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

/**
 * "Test connection" for OPC UA settings, step by step, each with its own verdict:
 * <ol>
 *   <li><b>reachable</b>: the endpoints of {@code endpoint_url} are discovered (GetEndpoints);</li>
 *   <li>an endpoint with the configured security policy and mode is offered;</li>
 *   <li><b>certificate</b> (secured policies only): the server certificate passes the connection's own
 *       trust list in its PKI directory; one that does not is put in {@code rejected/} by the validator,
 *       where an operator can trust it, and the probe stops there (a session would be refused);</li>
 *   <li><b>authenticated</b>: a session is opened and activated with the configured identity
 *       ({@link SessionOpener}, the connector's own attempt);</li>
 *   <li><b>latency</b>: the round trip of one read of the server's current time in that session.</li>
 * </ol>
 * Every request is bounded by a third of the timeout (discovery, then the session's attempt, which is
 * bounded by twice its request timeout), so the probe answers within about the timeout. The client is
 * disconnected before this returns. Stateless; safe from any thread (each probe has its own client).
 */
public final class OpcUaProbe {

    private OpcUaProbe() {
    }

    /** Probes connection {@code id} with {@code config}; never throws for a server or network failure. */
    public static ProbeResult probe(String id, OpcUaConnectionConfig config, Duration timeout) {
        return probe(id, config, timeout, KeyStorePassword.legacy());
    }

    /** As {@link #probe(String, OpcUaConnectionConfig, Duration)}, with the installation's key store password. */
    public static ProbeResult probe(String id, OpcUaConnectionConfig config, Duration timeout,
                                    KeyStorePassword keyStorePassword) {
        long stepMs = Math.max(100, Math.min(config.requestTimeoutMs(), timeout.toMillis() / 3));
        OpcUaConnectionConfig bounded = config.withRequestTimeoutMs(stepMs);
        String url = config.endpointUrl();
        long started = System.nanoTime();
        List<EndpointDescription> endpoints;
        try {
            endpoints = DiscoveryClient.getEndpoints(url, transport -> transport.setConnectTimeout(uint(stepMs)))
                    .get(stepMs * 2, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            return ProbeResult.unreachable("cannot reach " + url + ": " + FailureText.describe(e)
                    + "; check the host, the port and that the server runs");
        }
        long discoveryMs = elapsedMs(started);
        Optional<EndpointDescription> endpoint = endpoints.stream()
                .filter(e -> config.securityPolicy().policy().getUri().equals(e.getSecurityPolicyUri()))
                .filter(e -> e.getSecurityMode() == config.securityMode().mode())
                .findFirst();
        if (endpoint.isEmpty()) {
            return ProbeResult.failed(Optional.empty(), CertificateTrust.UNKNOWN, Optional.of(discoveryMs),
                    url + " answered but offers no endpoint with security_policy "
                            + lower(config.securityPolicy()) + " and security_mode " + lower(config.securityMode())
                            + "; it offers: " + offered(endpoints));
        }
        SessionOpener opener = new SessionOpener(id, bounded, keyStorePassword);
        CertificateTrust trust = CertificateTrust.NOT_USED;
        if (config.secured()) {
            Optional<String> untrusted = untrusted(opener, endpoint.get(), url);
            if (untrusted.isPresent()) {
                return ProbeResult.failed(Optional.empty(), CertificateTrust.UNTRUSTED, Optional.of(discoveryMs),
                        untrusted.get());
            }
            trust = CertificateTrust.TRUSTED;
        }
        OpcUaClient client;
        try {
            client = opener.open(new SessionActivityListener() { });
        } catch (Exception e) {
            Optional<Boolean> authenticated = UaException.extractStatusCode(e)
                    .filter(OpcUaProbe::identityRefused).map(status -> false);
            return ProbeResult.failed(authenticated, trust, Optional.of(discoveryMs), opener.explain(e));
        }
        try {
            long readStarted = System.nanoTime();
            client.readValue(0, TimestampsToReturn.Neither, NodeIds.Server_ServerStatus_CurrentTime);
            long latency = elapsedMs(readStarted);
            return ProbeResult.ok(trust, latency, "connected to " + url + " (" + lower(config.securityPolicy()) + "/"
                    + lower(config.securityMode()) + ", " + identity(config) + "): session activated, a read took "
                    + latency + " ms");
        } catch (UaException e) {
            return ProbeResult.failed(Optional.of(true), trust, Optional.of(discoveryMs), "the session to " + url
                    + " was activated, but reading the server's current time failed: " + FailureText.describe(e));
        } finally {
            try {
                client.disconnectAsync().get(stepMs, TimeUnit.MILLISECONDS);
            } catch (Exception ignored) {
                // the probe's own session; the server drops it when it times out
            }
        }
    }

    /** Why the endpoint's certificate is not trusted by the connection's PKI directory, if it is not. */
    private static Optional<String> untrusted(SessionOpener opener, EndpointDescription endpoint, String url) {
        List<X509Certificate> chain;
        try {
            chain = CertificateUtil.decodeCertificates(endpoint.getServerCertificate().bytesOrEmpty());
        } catch (UaException e) {
            return Optional.of(url + " sent a server certificate that cannot be read: " + FailureText.describe(e));
        }
        try {
            var pki = opener.pkiDirectory().orElseThrow();
            pki.validator().validateCertificateChain(chain, endpoint.getServer().getApplicationUri(),
                    new String[] {URI.create(url.replaceFirst("^opc\\.tcp://", "http://")).getHost()});
            return Optional.empty();
        } catch (UaException e) {
            String subject = chain.isEmpty() ? "(none)" : chain.get(0).getSubjectX500Principal().getName();
            String thumbprint = chain.isEmpty() ? "" : " " + CertificateEntry.thumbprint(chain.get(0));
            return Optional.of("the server certificate of " + url + " (" + subject + ", thumbprint" + thumbprint
                    + ") is not trusted: " + FailureText.describe(e) + "; it was put in "
                    + opener.pki().map(p -> p.root().resolve("rejected").toString()).orElse("rejected/")
                    + ": trust it on the connection's Certificates panel (once saved) and test again");
        } catch (Exception e) {
            return Optional.of("cannot open the connection's PKI directory to check the server certificate: "
                    + FailureText.describe(e));
        }
    }

    private static boolean identityRefused(StatusCode status) {
        long code = status.getValue() & 0xFFFF0000L;
        return code == StatusCodes.Bad_IdentityTokenRejected || code == StatusCodes.Bad_IdentityTokenInvalid
                || code == StatusCodes.Bad_UserAccessDenied;
    }

    private static String identity(OpcUaConnectionConfig config) {
        if (config.identity() instanceof OpcUaIdentity.Username user) {
            return "user " + user.username();
        }
        return config.identity() instanceof OpcUaIdentity.X509 ? "x509 user certificate" : "anonymous";
    }

    private static String offered(List<EndpointDescription> endpoints) {
        return endpoints.stream().map(e -> policyName(e.getSecurityPolicyUri()) + "/" + modeName(e))
                .distinct().collect(Collectors.joining(", "));
    }

    private static String modeName(EndpointDescription endpoint) {
        for (SecurityModeName name : SecurityModeName.values()) {
            if (name.mode() == endpoint.getSecurityMode()) {
                return lower(name);
            }
        }
        return String.valueOf(endpoint.getSecurityMode());
    }

    private static String policyName(String uri) {
        for (SecurityPolicyName name : SecurityPolicyName.values()) {
            if (name.policy().getUri().equals(uri)) {
                return lower(name);
            }
        }
        return uri.substring(uri.lastIndexOf('#') + 1);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase();
    }

    private static long elapsedMs(long startedNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
    }
}
