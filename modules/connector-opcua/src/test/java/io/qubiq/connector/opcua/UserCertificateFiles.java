package io.qubiq.connector.opcua;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.Base64;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateBuilder;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateGenerator;

/**
 * A generated self-signed X.509 user certificate and its key, written as PEM files for tests.
 * Immutable once written.
 *
 * @param certificate     the user certificate
 * @param certificateFile its PEM file
 * @param keyFile         the PEM PKCS#8 file of its private key
 */
record UserCertificateFiles(X509Certificate certificate, Path certificateFile, Path keyFile) {

    /** A new RSA 2048 user certificate for {@code commonName}, written to {@code name}.crt and {@code name}.key. */
    static UserCertificateFiles generate(Path dir, String name, String commonName) throws Exception {
        KeyPair keyPair = SelfSignedCertificateGenerator.generateRsaKeyPair(2048);
        X509Certificate certificate = new SelfSignedCertificateBuilder(keyPair)
                .setCommonName(commonName)
                .setOrganization("Qubiq tests")
                .setApplicationUri("urn:qubiq:test-user:" + name)
                .build();
        Path certificateFile = pem(dir.resolve(name + ".crt"), "CERTIFICATE", certificate.getEncoded());
        Path keyFile = pem(dir.resolve(name + ".key"), "PRIVATE KEY", keyPair.getPrivate().getEncoded());
        return new UserCertificateFiles(certificate, certificateFile, keyFile);
    }

    OpcUaIdentity.X509 identity() {
        return new OpcUaIdentity.X509(certificateFile, keyFile);
    }

    private static Path pem(Path file, String type, byte[] der) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
    }
}
