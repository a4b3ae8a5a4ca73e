package io.qubiq.connector.opcua;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.security.CertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.FileBasedCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateBuilder;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateGenerator;

/**
 * The connector's certificate directory:
 * <pre>
 *   own/instance.p12        the application instance certificate and key, generated on first use
 *   trusted/certs, trusted/crl   server certificates (and CRLs) the operator trusts
 *   issuers/certs, issuers/crl   CA certificates that may issue server certificates
 *   rejected/               server certificates that failed validation, for the operator to review
 * </pre>
 * A server certificate that is not trusted makes the connection fail and lands in {@code rejected/};
 * {@link #trust} moves it to {@code trusted/}, and the next connection attempt accepts it.
 * {@link #serverCertificates()} lists both folders for the operator, each certificate named by its
 * SHA-1 thumbprint ({@link CertificateEntry}).
 *
 * <p>The key store's password is fixed: the private key is protected by the directory's file
 * permissions, not by a secret (a known gap). Thread-safe: Milo's trust list and quarantine
 * synchronize internally, and listing and trusting are synchronized here so a listing never shows
 * a certificate half-way between the folders; generation happens once, in {@link #open}.
 */
public final class PkiDirectory {

    private static final String KEYSTORE = "instance.p12";
    private static final String ALIAS = "qubiq";
    private static final char[] STORE_PASSWORD = "qubiq".toCharArray();

    private final Path root;
    private final KeyPair keyPair;
    private final X509Certificate certificate;
    private final FileBasedTrustListManager trustList;
    private final FileBasedCertificateQuarantine rejected;

    private PkiDirectory(Path root, KeyPair keyPair, X509Certificate certificate, FileBasedTrustListManager trustList,
                         FileBasedCertificateQuarantine rejected) {
        this.root = root;
        this.keyPair = keyPair;
        this.certificate = certificate;
        this.trustList = trustList;
        this.rejected = rejected;
    }

    /** Opens {@code root}, creating its folders and, on first use, the instance certificate for {@code applicationUri}. */
    public static PkiDirectory open(Path root, String applicationUri) throws IOException, GeneralSecurityException {
        Path own = Files.createDirectories(root.resolve("own"));
        Path issuers = root.resolve("issuers");
        Path trusted = root.resolve("trusted");
        for (Path dir : List.of(issuers.resolve("certs"), issuers.resolve("crl"), trusted.resolve("certs"),
                trusted.resolve("crl"), root.resolve("rejected"))) {
            Files.createDirectories(dir);
        }
        Path storeFile = own.resolve(KEYSTORE);
        KeyStore store = KeyStore.getInstance("PKCS12");
        if (Files.exists(storeFile)) {
            try (InputStream in = Files.newInputStream(storeFile)) {
                store.load(in, STORE_PASSWORD);
            }
        } else {
            store.load(null, STORE_PASSWORD);
            KeyPair generated = SelfSignedCertificateGenerator.generateRsaKeyPair(2048);
            X509Certificate cert = selfSigned(generated, applicationUri);
            store.setKeyEntry(ALIAS, generated.getPrivate(), STORE_PASSWORD, new X509Certificate[]{cert});
            Path temp = own.resolve(KEYSTORE + ".tmp");
            try (OutputStream out = Files.newOutputStream(temp)) {
                store.store(out, STORE_PASSWORD);
            }
            Files.move(temp, storeFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        X509Certificate cert = (X509Certificate) store.getCertificate(ALIAS);
        PrivateKey key = (PrivateKey) store.getKey(ALIAS, STORE_PASSWORD);
        var trustList = new FileBasedTrustListManager(issuers.resolve("certs"), issuers.resolve("crl"),
                trusted.resolve("certs"), trusted.resolve("crl"));
        trustList.initialize();
        var quarantine = FileBasedCertificateQuarantine.create(root.resolve("rejected"));
        return new PkiDirectory(root, new KeyPair(cert.getPublicKey(), key), cert, trustList, quarantine);
    }

    private static X509Certificate selfSigned(KeyPair keyPair, String applicationUri) throws GeneralSecurityException {
        try {
            SelfSignedCertificateBuilder builder = new SelfSignedCertificateBuilder(keyPair)
                    .setCommonName("Qubiq gateway")
                    .setOrganization("Qubiq")
                    .setApplicationUri(applicationUri)
                    .addDnsName("localhost")
                    .addIpAddress("127.0.0.1");
            String host = InetAddress.getLocalHost().getHostName();
            if (!host.isBlank() && !"localhost".equals(host)) {
                builder.addDnsName(host);
            }
            return builder.build();
        } catch (GeneralSecurityException e) {
            throw e;
        } catch (Exception e) {
            throw new GeneralSecurityException("cannot generate the instance certificate", e);
        }
    }

    public Path root() {
        return root;
    }

    public KeyPair keyPair() {
        return keyPair;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** Validates server certificates against trusted/ and issuers/; rejected ones go to rejected/. */
    public CertificateValidator validator() {
        return new DefaultClientCertificateValidator(trustList, rejected);
    }

    public List<X509Certificate> rejectedCertificates() {
        return rejected.getRejectedCertificates();
    }

    public List<X509Certificate> trustedCertificates() {
        return trustList.getTrustedCertificates();
    }

    /** Trusts a server certificate (usually one from {@link #rejectedCertificates()}) and un-rejects it. */
    public synchronized void trust(X509Certificate serverCertificate) {
        trustList.addTrustedCertificate(serverCertificate);
        rejected.removeRejectedCertificate(serverCertificate);
    }

    /**
     * The server certificates in {@code rejected/} and {@code trusted/certs/}, rejected first, each
     * once: one that is in both (trusted while a stale copy stayed in rejected) counts as trusted.
     */
    public synchronized List<CertificateEntry> serverCertificates() {
        Map<String, CertificateEntry> entries = new LinkedHashMap<>();
        for (X509Certificate certificate : trustList.getTrustedCertificates()) {
            CertificateEntry entry = CertificateEntry.of(certificate, CertificateEntry.Folder.TRUSTED);
            entries.put(entry.thumbprint(), entry);
        }
        List<CertificateEntry> result = new ArrayList<>();
        for (X509Certificate certificate : rejected.getRejectedCertificates()) {
            CertificateEntry entry = CertificateEntry.of(certificate, CertificateEntry.Folder.REJECTED);
            if (!entries.containsKey(entry.thumbprint())) {
                result.add(entry);
            }
        }
        result.addAll(entries.values());
        return result;
    }

    /**
     * Trusts the rejected server certificate with this thumbprint: it moves from {@code rejected/}
     * to {@code trusted/certs/}. A certificate that is trusted already stays so. Returns its entry
     * (now {@link CertificateEntry.Folder#TRUSTED}), or empty when neither folder holds it.
     *
     * @param thumbprint as {@link CertificateEntry#normalizeThumbprint} accepts it
     * @throws IllegalArgumentException when {@code thumbprint} is not 40 hex digits
     */
    public synchronized Optional<CertificateEntry> trust(String thumbprint) {
        String wanted = CertificateEntry.normalizeThumbprint(thumbprint).orElseThrow(() ->
                new IllegalArgumentException("\"" + thumbprint + "\" is not a certificate thumbprint (40 hex digits,"
                        + " the SHA-1 of the certificate)"));
        for (X509Certificate certificate : trustList.getTrustedCertificates()) {
            if (CertificateEntry.thumbprint(certificate).equals(wanted)) {
                rejected.removeRejectedCertificate(certificate);
                return Optional.of(CertificateEntry.of(certificate, CertificateEntry.Folder.TRUSTED));
            }
        }
        for (X509Certificate certificate : rejected.getRejectedCertificates()) {
            if (CertificateEntry.thumbprint(certificate).equals(wanted)) {
                trust(certificate);
                return Optional.of(CertificateEntry.of(certificate, CertificateEntry.Folder.TRUSTED));
            }
        }
        return Optional.empty();
    }
}
