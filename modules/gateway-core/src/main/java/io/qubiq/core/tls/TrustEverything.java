package io.qubiq.core.tls;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509TrustManager;

/**
 * A trust manager that accepts every certificate chain: what {@code tls_verify: false} means for
 * every connection that has the setting (MQTT device connections and sinks, the QuestDB sink's
 * probe). <b>For tests only</b> (a test server's self-signed certificate): it gives up the
 * protection TLS exists for, since anyone between the gateway and the server can pose as the
 * server. Host names are still checked where the client checks them. The one copy in the gateway;
 * stateless, each call makes a new factory or context.
 */
public final class TrustEverything {

    private TrustEverything() {
    }

    /** For clients configured with a {@link TrustManagerFactory} (the HiveMQ client). */
    public static TrustManagerFactory factory() {
        return new TrustManagerFactory(new Spi(), new Provider("QubiqTrustEverything", "1.0",
                "accepts every certificate (tls_verify: false, for tests only)") {
            private static final long serialVersionUID = 1L;
        }, "TrustEverything") {
        };
    }

    /** For clients configured with an {@link SSLContext} ({@code java.net.http.HttpClient}). */
    public static SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new AcceptAny()}, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS in this JVM", e);
        }
    }

    private static final class Spi extends TrustManagerFactorySpi {
        @Override
        protected void engineInit(KeyStore keyStore) {
        }

        @Override
        protected void engineInit(ManagerFactoryParameters parameters) {
        }

        @Override
        protected TrustManager[] engineGetTrustManagers() {
            return new TrustManager[] {new AcceptAny()};
        }
    }

    private static final class AcceptAny implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
