package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.auth.AuthConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS with a configured keystore: served over TLS 1.2/1.3 only with ECDHE and AEAD suites, every answer
 * carries HSTS, and the session cookie is Secure.
 */
class HttpsConsoleTest {

    @TempDir
    Path dir;

    @Test
    void withTlsConfiguredTheConsoleServesHttpsAndMarksTheSessionCookieSecure() throws Exception {
        Path keystore = dir.resolve("console.p12");
        keytool(keystore);
        TlsConfig tls = new TlsConfig(keystore.toString(), "changeit-secret", "pkcs12");
        assertThat(tls.violations()).isEmpty();
        try (ConsoleFixture console = new ConsoleFixture(dir, new HttpConfig("127.0.0.1", 0, Optional.of(tls), false),
                ConsoleFixture.cheap(AuthConfig.defaults()), true)) {
            HttpClient https = HttpClient.newBuilder().sslContext(trusting(keystore)).build();
            String base = "https://127.0.0.1:" + console.server.port();

            for (String path : new String[] {"/health", "/", "/api/v1/tags", "/no-such-page"}) {
                HttpResponse<String> answer = https.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(answer.headers().firstValue("Strict-Transport-Security")).as(path)
                        .contains("max-age=31536000");
            }
            assertThat(https.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            HttpResponse<String> signIn = https.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/session"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"viewer\",\"password\":\""
                            + ConsoleFixture.password("viewer") + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(signIn.statusCode()).isEqualTo(200);
            assertThat(signIn.headers().firstValue("Set-Cookie").orElseThrow()).contains("; Secure", "HttpOnly");

            assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + console.server.port() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString()))
                    .as("plain HTTP is not served on the HTTPS port").isInstanceOf(IOException.class);

            assertThat(handshake(keystore, console.server.port(), "TLSv1.2", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"))
                    .as("ECDHE with AES-GCM").isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
            assertThat(handshake(keystore, console.server.port(), "TLSv1.3", "TLS_AES_256_GCM_SHA384"))
                    .isEqualTo("TLS_AES_256_GCM_SHA384");
            for (String cbc : new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"}) {
                assertThatThrownBy(() -> handshake(keystore, console.server.port(), "TLSv1.2", cbc))
                        .as("a client offering only " + cbc + " is refused").isInstanceOf(SSLHandshakeException.class);
            }
            assertThatThrownBy(() -> handshake(keystore, console.server.port(), "TLSv1.1",
                    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA")).as("TLS 1.1 is refused").isInstanceOf(SSLException.class);
        }
    }

    /** Handshakes offering only {@code protocol} and {@code suite}; returns the suite agreed. */
    private static String handshake(Path keystore, int port, String protocol, String suite) throws Exception {
        try (SSLSocket socket = (SSLSocket) trusting(keystore).getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(new String[] {protocol});
            socket.setEnabledCipherSuites(new String[] {suite});
            socket.startHandshake();
            return socket.getSession().getCipherSuite();
        }
    }

    @Test
    void aMissingKeystoreOrUnknownTypeIsAConfigurationErrorNamingTheKey() {
        TlsConfig tls = new TlsConfig(dir.resolve("none.p12").toString(), "x", "pem");
        assertThat(tls.violations()).extracting(v -> v.key()).containsExactlyInAnyOrder("keystore", "keystore_type");
    }

    private static void keytool(Path keystore) throws Exception {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "console", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", "changeit-secret").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
    }

    /** Trusts exactly the certificate in {@code keystore}. */
    private static SSLContext trusting(Path keystore) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = java.nio.file.Files.newInputStream(keystore)) {
            store.load(in, "changeit-secret".toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("console", (X509Certificate) store.getCertificate("console"));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
