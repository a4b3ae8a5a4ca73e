package io.qubiq.connector.opcua;

import io.qubiq.core.config.ConfigChecked.Violation;
import io.qubiq.core.error.ConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The X.509 user identity of a session, read from the files an {@link OpcUaIdentity.X509} names:
 * the user certificate (first in the file, PEM or DER, issuers may follow) and its PKCS#8 private
 * key, checked to belong together. Every problem names the configuration key at fault
 * ({@code identity.certificate} or {@code identity.private_key}) and the file. Immutable.
 *
 * @param chain the user certificate followed by any issuer certificates from the same file
 * @param key   the private key of {@code chain.get(0)}
 */
record UserCertificate(List<X509Certificate> chain, PrivateKey key) {

    static final String CERTIFICATE_KEY = "identity.certificate";
    static final String PRIVATE_KEY_KEY = "identity.private_key";

    UserCertificate {
        chain = List.copyOf(chain);
    }

    /** The certificate and key the identity names; throws naming the key and file of the first problem. */
    static UserCertificate load(OpcUaIdentity.X509 identity) throws ConfigurationException {
        List<X509Certificate> chain = readCertificates(identity.certificate());
        PrivateKey key = readPrivateKey(identity.privateKey());
        if (!matches(chain.get(0), key)) {
            throw new ConfigurationException(PRIVATE_KEY_KEY, "the key in " + identity.privateKey()
                    + " does not belong to the certificate in " + identity.certificate() + " ("
                    + chain.get(0).getSubjectX500Principal().getName() + ")");
        }
        return new UserCertificate(chain, key);
    }

    /** The first problem of {@link #load} as a config violation; empty when the files are usable. */
    static Optional<Violation> problem(OpcUaIdentity.X509 identity) {
        try {
            load(identity);
            return Optional.empty();
        } catch (ConfigurationException e) {
            return Optional.of(new Violation(e.key(), e.getMessage().substring(e.key().length() + 2)));
        }
    }

    private static List<X509Certificate> readCertificates(Path file) throws ConfigurationException {
        byte[] bytes = read(file, CERTIFICATE_KEY, "certificate");
        try {
            List<X509Certificate> chain = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes)).stream()
                    .map(X509Certificate.class::cast).toList();
            if (chain.isEmpty()) {
                throw new ConfigurationException(CERTIFICATE_KEY, file + " holds no X.509 certificate (PEM or DER)");
            }
            return chain;
        } catch (CertificateException e) {
            throw new ConfigurationException(CERTIFICATE_KEY, file + " is not an X.509 certificate (PEM or DER): "
                    + e.getMessage(), e);
        }
    }

    private static PrivateKey readPrivateKey(Path file) throws ConfigurationException {
        String text = new String(read(file, PRIVATE_KEY_KEY, "private key"), StandardCharsets.US_ASCII);
        if (text.contains("BEGIN ENCRYPTED PRIVATE KEY")) {
            throw new ConfigurationException(PRIVATE_KEY_KEY, file + " is encrypted; give an unencrypted PKCS#8 key"
                    + " (openssl pkcs8 -topk8 -nocrypt)");
        }
        int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = text.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new ConfigurationException(PRIVATE_KEY_KEY, file + " holds no PEM PKCS#8 private key (BEGIN PRIVATE"
                    + " KEY); convert a PKCS#1 key with openssl pkcs8 -topk8 -nocrypt");
        }
        String base64 = text.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end).replaceAll("\\s", "");
        byte[] der;
        try {
            der = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(PRIVATE_KEY_KEY, file + " is not valid PEM: " + e.getMessage(), e);
        }
        for (String algorithm : List.of("RSA", "EC")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next
            }
        }
        throw new ConfigurationException(PRIVATE_KEY_KEY, file + " is not an RSA or EC PKCS#8 private key");
    }

    private static byte[] read(Path file, String key, String what) throws ConfigurationException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigurationException(key, "the " + what + " file " + file + " does not exist", e);
        } catch (IOException e) {
            throw new ConfigurationException(key, "cannot read the " + what + " file " + file + ": " + e, e);
        }
    }

    /** Whether {@code key} signs what the certificate's public key verifies. */
    private static boolean matches(X509Certificate certificate, PrivateKey key) {
        String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
        if (!certificate.getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
            return false;
        }
        try {
            byte[] probe = "qubiq user certificate check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
