package io.qubiq.mqtt;

import java.security.KeyStore;
import java.security.Provider;
import java.security.cert.X509Certificate;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509TrustManager;

/**
 * A trust manager factory whose trust manager accepts every certificate chain: what
 * {@code tls_verify: false} means. <b>For tests only</b> (a test broker's self-signed certificate):
 * it gives up the protection TLS exists for, since anyone between the gateway and the broker can
 * pose as the broker. Stateless; each call makes a new factory.
 */
public final class TrustEverything {

    private TrustEverything() {
    }

    public static TrustManagerFactory factory() {
        return new TrustManagerFactory(new Spi(), new Provider("QubiqMqttTrustEverything", "1.0",
                "accepts every certificate (tls_verify: false, for tests only)") {
            private static final long serialVersionUID = 1L;
        }, "TrustEverything") {
        };
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
            return new TrustManager[] {new X509TrustManager() {
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
            }};
        }
    }
}
