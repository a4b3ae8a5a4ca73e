package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.connector.opcua.CertificateEntry;
import io.qubiq.core.event.AuditAction;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trusting an OPC UA server's certificate through the REST API of a real gateway: a secured
 * endpoint (Basic256Sha256, SignAndEncrypt) of a real Milo server refuses the first connection, its
 * certificate waits in rejected/, the operator trusts it by thumbprint, and values flow.
 */
@ExtendWith(OpcUaServerExtension.class)
class CertificateTrustApiTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private DataDirectory data;
    private Gateway gateway;
    private java.security.cert.X509Certificate legacyCertificate;

    @BeforeEach
    void start(TestOpcUaServer server) throws Exception {
        // A long backoff: the connection can only come up in time because trusting starts the next attempt.
        String yaml = TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                devices:
                  secured-plc:
                    opcua:
                      endpoint_url: %s
                      security_policy: basic256sha256
                      security_mode: sign_and_encrypt
                      request_timeout_ms: 2000
                      reconnect_initial_ms: 120000
                      reconnect_max_ms: 120000
                      tags:
                        - path: plant/int32
                          node_id: "%s"
                          sampling_interval_ms: 50
                  open-plc:
                    opcua:
                      endpoint_url: %s
                      tags:
                        - path: plant/double
                          node_id: "%s"
                  broker:
                    mqtt:
                      host: 127.0.0.1
                      port: 1
                      subscriptions:
                        - topic: a/b
                          tag: a/b
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.INT32), server.endpointUrl(),
                server.nodeId(TestVariable.DOUBLE));
        GatewayConfig config = ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
        // a key store as gateways before the per-installation password wrote it: migrated at first use
        legacyCertificate = io.qubiq.connector.opcua.PkiDirectory.open(dir.resolve("pki/secured-plc"),
                "urn:qubiq:gateway:opcua:secured-plc", io.qubiq.connector.opcua.KeyStorePassword.legacy()).certificate();
        data = DataDirectory.open(dir);
        gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
    }

    @AfterEach
    void stop() throws Exception {
        gateway.lifecycle().stopAll(Duration.ofSeconds(10));
        data.close();
    }

    private HttpResponse<String> get(String path) {
        return TestOperators.admin(gateway).get(path);
    }

    private HttpResponse<String> post(String path) {
        return TestOperators.admin(gateway).post(path, null);
    }

    private JsonNode body(HttpResponse<String> response) throws Exception {
        return json.readTree(response.body());
    }

    @Test
    void anUntrustedServerCertificateIsRejectedListedAndOnceTrustedThroughTheApiTheConnectionComesUp(
            TestOpcUaServer server) throws Exception {
        String thumbprint = CertificateEntry.thumbprint(server.certificate());

        JsonNode listed = await().atMost(WAIT).until(() -> body(get("/api/v1/connections/secured-plc/certificates")),
                b -> b.path("certificates").size() > 0);
        assertThat(listed.path("connection").asText()).isEqualTo("secured-plc");
        assertThat(Path.of(listed.path("directory").asText())).isEqualTo(dir.resolve("pki/secured-plc"));
        JsonNode rejected = listed.path("certificates").get(0);
        assertThat(rejected.path("thumbprint").asText()).isEqualTo(thumbprint);
        assertThat(rejected.path("folder").asText()).isEqualTo("rejected");
        assertThat(rejected.path("subject").asText()).isEqualTo(server.certificate().getSubjectX500Principal().getName());
        assertThat(rejected.path("notAfter").asText()).isNotBlank();
        await().atMost(WAIT).until(() -> body(get("/api/v1/connections/secured-plc")).path("state").asText()
                .equals("DOWN"));
        assertThat(body(get("/api/v1/connections/secured-plc")).path("lastError").asText()).contains("rejected");

        HttpResponse<String> trusted = post("/api/v1/connections/secured-plc/certificates/" + thumbprint + "/trust");

        assertThat(trusted.statusCode()).as(trusted.body()).isEqualTo(200);
        assertThat(body(trusted).path("certificate").path("folder").asText()).isEqualTo("trusted");
        assertThat(body(trusted).path("message").asText()).contains("next connection attempt");
        assertThat(body(get("/api/v1/connections/secured-plc/certificates")).path("certificates"))
                .singleElement().satisfies(c -> assertThat(c.path("folder").asText()).isEqualTo("trusted"));
        await().atMost(WAIT).until(() -> body(get("/api/v1/connections/secured-plc")).path("state").asText()
                .equals("UP"));
        await().atMost(WAIT).until(() -> get("/api/v1/tags/plant/int32").body().contains("\"quality\":\"Good\""));
        assertThat(body(get("/api/v1/tags/plant/int32")).path("value").asInt()).isEqualTo(42);
        // the key store now has the installation's password, kept in the secrets store, and the same certificate
        String password = io.qubiq.config.secret.SecretStore.open(dir.resolve("secrets"),
                io.qubiq.fileops.FileOps.system()).secret("opcua-pki-keystore").orElseThrow();
        assertThat(password).isNotEqualTo("qubiq").hasSizeGreaterThanOrEqualTo(40);
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        try (var in = java.nio.file.Files.newInputStream(dir.resolve("pki/secured-plc/own/instance.p12"))) {
            store.load(in, password.toCharArray());
        }
        assertThat(store.getCertificate("qubiq")).isEqualTo(legacyCertificate);
        assertThat(gateway.events().recentAudits())
                .extracting(a -> a.action() + " " + a.target() + " " + a.outcome() + " " + a.user())
                .contains(AuditAction.CERTIFICATE_TRUST + " connection/secured-plc/certificate/" + thumbprint
                        + " trusted " + TestOperators.ADMIN);
    }

    @Test
    void mistakesAreAnsweredWithAnErrorThatSaysWhatIsWrong() throws Exception {
        await().atMost(WAIT).until(() -> body(get("/api/v1/connections/secured-plc/certificates"))
                .path("certificates").size() > 0);
        String zeros = "00".repeat(20);

        assertError(get("/api/v1/connections/nope/certificates"), 404, "no device connection 'nope'");
        assertError(post("/api/v1/connections/nope/certificates/" + zeros + "/trust"), 404, "no device connection");
        assertError(get("/api/v1/connections/broker/certificates"), 409, "only OPC UA connections");
        assertError(post("/api/v1/connections/broker/certificates/" + zeros + "/trust"), 409, "(mqtt)");
        assertError(get("/api/v1/connections/open-plc/certificates"), 409, "security_policy none");
        assertError(post("/api/v1/connections/secured-plc/certificates/" + zeros + "/trust"), 404,
                "no server certificate with thumbprint " + zeros);
        assertError(post("/api/v1/connections/secured-plc/certificates/not-a-thumbprint/trust"), 400,
                "40 hex digits");
        assertThat(body(get("/api/v1/connections/secured-plc/certificates")).path("certificates").get(0)
                .path("folder").asText()).as("nothing was trusted").isEqualTo("rejected");
        assertThat(gateway.events().recentAudits()).noneMatch(a -> a.action() == AuditAction.CERTIFICATE_TRUST);
    }

    private void assertError(HttpResponse<String> response, int status, String message) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(body(response).path("status").asInt()).isEqualTo(status);
        assertThat(body(response).path("error").asText()).contains(message);
    }
}
