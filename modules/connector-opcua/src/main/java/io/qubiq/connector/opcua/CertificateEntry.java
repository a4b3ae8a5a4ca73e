package io.qubiq.connector.opcua;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * A server certificate in a connection's PKI directory, as the operator reviews it. Immutable.
 *
 * @param thumbprint the SHA-1 of the DER encoding, 40 lower-case hex digits (what OPC UA tools call
 *                   the thumbprint); names the certificate in the API
 * @param subject    the subject's distinguished name
 * @param issuer     the issuer's distinguished name (equal to the subject for a self-signed certificate)
 * @param notBefore  start of validity
 * @param notAfter   end of validity
 * @param folder     where it is: {@code rejected/} (failed validation, waiting for the operator) or
 *                   {@code trusted/certs/}
 */
public record CertificateEntry(String thumbprint, String subject, String issuer, Instant notBefore, Instant notAfter,
                               Folder folder) {

    /** The PKI folders a server certificate can be in. */
    public enum Folder {
        REJECTED, TRUSTED
    }

    static CertificateEntry of(X509Certificate certificate, Folder folder) {
        return new CertificateEntry(thumbprint(certificate), certificate.getSubjectX500Principal().getName(),
                certificate.getIssuerX500Principal().getName(), certificate.getNotBefore().toInstant(),
                certificate.getNotAfter().toInstant(), folder);
    }

    /** The SHA-1 thumbprint of {@code certificate}, lower-case hex. */
    public static String thumbprint(X509Certificate certificate) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(certificate.getEncoded()));
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot compute the thumbprint of " + certificate.getSubjectX500Principal(),
                    e);
        }
    }

    /**
     * {@code text} as a thumbprint: 40 hex digits in any case, optionally separated by colons or
     * spaces ({@code AB:CD:...} as certificate viewers show it); empty when it is not one.
     */
    public static Optional<String> normalizeThumbprint(String text) {
        String hex = text.replace(":", "").replace(" ", "").toLowerCase(Locale.ROOT);
        return hex.matches("[0-9a-f]{40}") ? Optional.of(hex) : Optional.empty();
    }
}
