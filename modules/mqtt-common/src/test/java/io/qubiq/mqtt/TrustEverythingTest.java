package io.qubiq.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.tls.TrustEverything;
import java.io.InputStream;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

/** The shared trust-everything manager ({@code tls_verify: false}) as the MQTT clients get it. */
class TrustEverythingTest {

    /** A self-signed certificate for CN=test-broker.invalid that no trust store holds. */
    private static X509Certificate selfSigned() throws Exception {
        try (InputStream pem = TrustEverythingTest.class.getResourceAsStream("/self-signed-broker.pem")) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(pem);
        }
    }

    private static X509TrustManager trustManager(TrustManagerFactory factory) throws Exception {
        factory.init((KeyStore) null);
        return (X509TrustManager) factory.getTrustManagers()[0];
    }

    @Test
    void theJvmTrustStoreRejectsTheSelfSignedCertificateThatTrustEverythingAccepts() throws Exception {
        X509Certificate[] chain = {selfSigned()};
        X509TrustManager jvm = trustManager(TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm()));
        X509TrustManager everything = trustManager(TrustEverything.factory());

        assertThatThrownBy(() -> jvm.checkServerTrusted(chain, "RSA")).isInstanceOf(CertificateException.class);
        assertThatCode(() -> everything.checkServerTrusted(chain, "RSA")).doesNotThrowAnyException();
        assertThatCode(() -> everything.checkClientTrusted(chain, "RSA")).doesNotThrowAnyException();
    }

    @Test
    void itNamesNoAcceptedIssuersSinceItAcceptsAny() throws Exception {
        assertThat(trustManager(TrustEverything.factory()).getAcceptedIssuers()).isEmpty();
    }

    @Test
    void itsProviderSaysWhatItIsFor() {
        assertThat(TrustEverything.factory().getProvider().getInfo()).contains("tls_verify: false", "tests only");
    }
}
