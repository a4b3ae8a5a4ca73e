package io.qubiq.sink.mqtt;

import java.security.KeyStore;
import java.security.Provider;
import java.security.cert.X509Certificate;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509TrustManager;

/** A trust manager factory that accepts every certificate: {@code tls_verify: false}, for tests only. */
final class TrustEveryCertificate {

    private TrustEveryCertificate() {
    }

    static TrustManagerFactory factory() {
        return new TrustManagerFactory(new Spi(), new Provider("QubiqMqttSinkTrustAll", "1.0",
                "accepts every certificate") {
            private static final long serialVersionUID = 1L;
        }, "TrustAll") {
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
