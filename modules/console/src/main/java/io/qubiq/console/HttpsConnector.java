package io.qubiq.console;

import java.nio.file.Path;
import java.util.Locale;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The console's HTTPS listener: the keystore of {@link TlsConfig}, TLS 1.2 and 1.3 only, the suites of
 * {@link #CIPHER_SUITES} only, {@code Strict-Transport-Security: max-age=31536000} on every answer (set by
 * Jetty's {@link SecureRequestCustomizer} on secure requests, so never over plain HTTP), no SNI host check
 * (a plant PC is often reached by IP address). Jetty loads the keystore when the server starts; a wrong
 * password or an unreadable file fails the start with Jetty's message.
 */
final class HttpsConnector {

    /** One year: browsers that saw the console over HTTPS refuse plain HTTP to it for that long. */
    static final long HSTS_MAX_AGE_SECONDS = 31_536_000;

    /**
     * Forward secrecy and authenticated encryption only: the TLS 1.3 suites, and for TLS 1.2 ECDHE key exchange
     * (RSA or ECDSA certificate) with AES-GCM or ChaCha20-Poly1305. No CBC, no static RSA key exchange, no
     * plain DHE. Jetty reads these as regular expressions over the JDK's suite names.
     */
    static final String[] CIPHER_SUITES = {
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_(ECDSA|RSA)_WITH_AES_(128|256)_GCM_SHA(256|384)",
        "TLS_ECDHE_(ECDSA|RSA)_WITH_CHACHA20_POLY1305_SHA256"};

    private HttpsConnector() {
    }

    static ServerConnector create(Server server, HttpConfiguration http, TlsConfig tls, String host, int port) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(Path.of(tls.keystore()).toAbsolutePath().toString());
        ssl.setKeyStorePassword(tls.keystorePassword());
        ssl.setKeyStoreType(tls.keystoreType().toUpperCase(Locale.ROOT));
        ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        ssl.setIncludeCipherSuites(CIPHER_SUITES);
        HttpConfiguration https = new HttpConfiguration(http);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        secure.setStsMaxAge(HSTS_MAX_AGE_SECONDS);
        https.addCustomizer(secure);
        ServerConnector connector = new ServerConnector(server, ssl, new HttpConnectionFactory(https));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }
}
