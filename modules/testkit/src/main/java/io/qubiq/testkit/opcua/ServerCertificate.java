package io.qubiq.testkit.opcua;

import java.security.KeyPair;
import java.security.cert.X509Certificate;
import org.eclipse.milo.opcua.stack.core.security.CertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateStore;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.RsaSha256CertificateFactory;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateBuilder;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateGenerator;

/**
 * The test server's self-signed application instance certificate (for 127.0.0.1 and localhost),
 * generated once per JVM because RSA key generation is slow here. The server accepts every client
 * certificate: trust decisions are the client's to test. Immutable.
 */
final class ServerCertificate {

    static final String APPLICATION_URI = "urn:qubiq:testkit:opcua-server";

    private static volatile ServerCertificate instance;

    private final KeyPair keyPair;
    private final X509Certificate certificate;

    private ServerCertificate(KeyPair keyPair, X509Certificate certificate) {
        this.keyPair = keyPair;
        this.certificate = certificate;
    }

    static synchronized ServerCertificate get() {
        if (instance == null) {
            try {
                KeyPair keyPair = SelfSignedCertificateGenerator.generateRsaKeyPair(2048);
                X509Certificate certificate = new SelfSignedCertificateBuilder(keyPair)
                        .setCommonName("Qubiq test OPC UA server")
                        .setOrganization("Qubiq")
                        .setApplicationUri(APPLICATION_URI)
                        .addDnsName("localhost")
                        .addIpAddress("127.0.0.1")
                        .build();
                instance = new ServerCertificate(keyPair, certificate);
            } catch (Exception e) {
                throw new IllegalStateException("cannot generate the test server's certificate", e);
            }
        }
        return instance;
    }

    X509Certificate certificate() {
        return certificate;
    }

    CertificateManager manager() throws Exception {
        var factory = new RsaSha256CertificateFactory() {
            @Override
            protected KeyPair createRsaSha256KeyPair() {
                return keyPair;
            }

            @Override
            protected X509Certificate[] createRsaSha256CertificateChain(KeyPair pair) {
                return new X509Certificate[]{certificate};
            }
        };
        var group = DefaultApplicationGroup.createAndInitialize(new MemoryTrustListManager(),
                new MemoryCertificateStore(), factory, (chain, applicationUri, hostnames) -> {
                });
        return new DefaultCertificateManager(new MemoryCertificateQuarantine(), group);
    }
}
