package io.qubiq.connector.opcua;

import io.qubiq.fileops.OwnerOnly;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p><b>The key store</b> is protected by a password per installation ({@link KeyStorePassword}, the
 * gateway's secrets store) and by the file permissions: the folders are created {@code 0700}, the key
 * store {@code 0600}. A key store written with the former fixed password ({@link #LEGACY_PASSWORD}) is
 * migrated when opened: read with the old password, written again (temp file, atomic rename) with the
 * installation's, and the log says so. Thread-safe: Milo's trust list and quarantine
 * synchronize internally, and listing and trusting are synchronized here so a listing never shows
 * a certificate half-way between the folders; generation happens once, in {@link #open}.
 */
public final class PkiDirectory {

    private static final String KEYSTORE = "instance.p12";
    private static final String ALIAS = "qubiq";
    /** The password every key store had before it was per installation; only read, to migrate from. */
    static final char[] LEGACY_PASSWORD = "qubiq".toCharArray();
    private static final Logger log = LoggerFactory.getLogger(PkiDirectory.class);

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

    /** {@link #open(Path, String, KeyStorePassword)} with the former fixed password: for tests and tools. */
    public static PkiDirectory open(Path root, String applicationUri) throws IOException, GeneralSecurityException {
        return open(root, applicationUri, KeyStorePassword.legacy());
    }

    /**
     * Opens {@code root}, creating its folders and, on first use, the instance certificate for {@code
     * applicationUri} in a key store protected by {@code passwords}; migrates a key store that still has the
     * former fixed password.
     *
     * @throws IOException the key store cannot be read with either password, or not written
     */
    public static PkiDirectory open(Path root, String applicationUri, KeyStorePassword passwords)
            throws IOException, GeneralSecurityException {
        Path own = OwnerOnly.createDirectories(root.resolve("own"));
        Path issuers = root.resolve("issuers");
        Path trusted = root.resolve("trusted");
        for (Path dir : List.of(issuers.resolve("certs"), issuers.resolve("crl"), trusted.resolve("certs"),
                trusted.resolve("crl"), root.resolve("rejected"))) {
            OwnerOnly.createDirectories(dir);
        }
        Path storeFile = own.resolve(KEYSTORE);
        char[] password = passwords.password();
        KeyStore store;
        if (Files.exists(storeFile)) {
            OwnerOnly.tighten(storeFile);
            store = load(storeFile, password);
        } else {
            store = KeyStore.getInstance("PKCS12");
            store.load(null, password);
            KeyPair generated = SelfSignedCertificateGenerator.generateRsaKeyPair(2048);
            X509Certificate cert = selfSigned(generated, applicationUri);
            store.setKeyEntry(ALIAS, generated.getPrivate(), password, new X509Certificate[]{cert});
            save(store, storeFile, password);
        }
        X509Certificate cert = (X509Certificate) store.getCertificate(ALIAS);
        PrivateKey key = (PrivateKey) store.getKey(ALIAS, password);
        var trustList = new FileBasedTrustListManager(issuers.resolve("certs"), issuers.resolve("crl"),
                trusted.resolve("certs"), trusted.resolve("crl"));
        trustList.initialize();
        var quarantine = FileBasedCertificateQuarantine.create(root.resolve("rejected"));
        return new PkiDirectory(root, new KeyPair(cert.getPublicKey(), key), cert, trustList, quarantine);
    }

    /** The key store, read with {@code password}, or with the former fixed one and then migrated to it. */
    private static KeyStore load(Path storeFile, char[] password) throws IOException, GeneralSecurityException {
        try {
            return read(storeFile, password);
        } catch (IOException wrongPassword) {
            if (Arrays.equals(password, LEGACY_PASSWORD)) {
                throw wrongPassword;
            }
            KeyStore old;
            try {
                old = read(storeFile, LEGACY_PASSWORD);
            } catch (IOException alsoWrong) {
                throw new IOException("cannot open the OPC UA key store " + storeFile + " with this installation's"
                        + " password (secret opcua-pki-keystore) nor the former fixed one: "
                        + wrongPassword.getMessage() + "; if the secrets store was lost, delete " + storeFile
                        + " so that a new instance certificate is made (servers must trust it again)", wrongPassword);
            }
            KeyStore migrated = KeyStore.getInstance("PKCS12");
            migrated.load(null, password);
            migrated.setKeyEntry(ALIAS, old.getKey(ALIAS, LEGACY_PASSWORD), password, old.getCertificateChain(ALIAS));
            save(migrated, storeFile, password);
            log.info("The OPC UA key store {} had the former fixed password; it is now protected by this"
                    + " installation's password (secret opcua-pki-keystore in the secrets store)", storeFile);
            return migrated;
        }
    }

    private static KeyStore read(Path storeFile, char[] password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(storeFile)) {
            store.load(in, password);
        }
        return store;
    }

    /** Writes the key store owner-only: a temp file, then an atomic rename over {@code storeFile}. */
    private static void save(KeyStore store, Path storeFile, char[] password) throws IOException, GeneralSecurityException {
        Path temp = storeFile.resolveSibling(KEYSTORE + ".tmp");
        Files.deleteIfExists(temp);
        try (OutputStream out = Files.newOutputStream(OwnerOnly.createFile(temp))) {
            store.store(out, password);
        }
        Files.move(temp, storeFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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
