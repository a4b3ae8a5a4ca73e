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
 * The console's HTTPS listener: the keystore of {@link TlsConfig}, TLS 1.2 or newer (Jetty's default
 * protocol and cipher exclusions), no SNI host check (a plant PC is often reached by IP address). Jetty
 * loads the keystore when the server starts; a wrong password or an unreadable file fails the start
 * with Jetty's message.
 */
final class HttpsConnector {

    private HttpsConnector() {
    }

    static ServerConnector create(Server server, HttpConfiguration http, TlsConfig tls, String host, int port) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(Path.of(tls.keystore()).toAbsolutePath().toString());
        ssl.setKeyStorePassword(tls.keystorePassword());
        ssl.setKeyStoreType(tls.keystoreType().toUpperCase(Locale.ROOT));
        ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        HttpConfiguration https = new HttpConfiguration(http);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        https.addCustomizer(secure);
        ServerConnector connector = new ServerConnector(server, ssl, new HttpConnectionFactory(https));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }
}
