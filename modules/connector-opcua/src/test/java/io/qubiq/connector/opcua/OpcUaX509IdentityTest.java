package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.UserTokenPolicy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The X.509 user identity against the test server, which trusts only the user certificates a test names. */
@ExtendWith(OpcUaServerExtension.class)
class OpcUaX509IdentityTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;
    static UserCertificateFiles trusted;
    static UserCertificateFiles stranger;

    @BeforeAll
    static void generateUserCertificates() throws Exception {
        trusted = UserCertificateFiles.generate(dir, "trusted", "gateway-user");
        stranger = UserCertificateFiles.generate(dir, "stranger", "unknown-user");
    }

    private static OpcUaConnectionConfig config(TestOpcUaServer server, OpcUaIdentity identity, Path pki) {
        OpcUaTagConfig tag = new OpcUaTagConfig("plant/int32", server.nodeId(TestVariable.INT32), 50, 1,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
        return new OpcUaConnectionConfig(server.endpointUrl(), SecurityPolicyName.NONE, SecurityModeName.NONE, identity,
                Optional.of(pki), 1000, 60000, 100, 500, 0, AcquisitionMode.SUBSCRIPTION, 1000, 100, 1000, OpcUaTagDefaults.STANDARD, List.of(tag));
    }

    @Test
    void x509IdentityWhoseCertificateTheServerTrustsActivatesTheSessionAndValuesFlow(TestOpcUaServer server,
                                                                                    @TempDir Path pki) {
        server.trustUserCertificate(trusted.certificate());
        RecordingPublisher publisher = new RecordingPublisher();
        try (OpcUaConnector connector = new OpcUaConnector("x509ok", config(server, trusted.identity(), pki))) {
            connector.start(publisher);

            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
            await().atMost(WAIT).until(() -> publisher.latest("plant/int32")
                    .filter(v -> v.quality().isGood() && Integer.valueOf(42).equals(v.value())).isPresent());
        }
    }

    @Test
    void certificateTheServerDoesNotAcceptKeepsTheConnectionDownWithAnErrorNamingTheX509Identity(
            TestOpcUaServer server, @TempDir Path pki) {
        try (OpcUaConnector connector = new OpcUaConnector("x509bad", config(server, stranger.identity(), pki))) {
            connector.start(new RecordingPublisher());

            String error = await().atMost(WAIT).until(() -> connector.status().lastError().orElse(""), e -> !e.isEmpty());
            assertThat(error).contains("refused the x509 user identity", stranger.certificateFile().toString(),
                    "Bad_IdentityTokenRejected");
            assertThat(connector.status().state()).isEqualTo(ConnectionState.DOWN);
            await().during(Duration.ofMillis(700)).atMost(WAIT)
                    .until(() -> connector.status().state() == ConnectionState.DOWN);
        }
    }

    @Test
    void missingKeyFileIsAConfigurationErrorNamingThePrivateKeyAtLoadAndAtStart(TestOpcUaServer server,
                                                                              @TempDir Path pki) {
        Path missing = dir.resolve("nowhere.key");
        String yaml = """
                endpoint_url: opc.tcp://127.0.0.1:4840
                identity: {type: x509, certificate: "%s", private_key: "%s"}
                tags: []
                """.formatted(trusted.certificateFile(), missing);
        assertThatThrownBy(() -> ConfigLoader.parse("plc.yaml", yaml, OpcUaConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).singleElement().satisfies(p -> {
                    assertThat(p.keyPath()).isEqualTo("identity.private_key");
                    assertThat(p.toString()).contains(missing.toString(), "does not exist");
                }));

        OpcUaIdentity.X509 identity = new OpcUaIdentity.X509(trusted.certificateFile(), missing);
        try (OpcUaConnector connector = new OpcUaConnector("x509nokey", config(server, identity, pki))) {
            connector.start(new RecordingPublisher());
            String error = await().atMost(WAIT).until(() -> connector.status().lastError().orElse(""), e -> !e.isEmpty());
            assertThat(error).contains("identity.private_key", missing.toString());
            assertThat(connector.status().state()).isEqualTo(ConnectionState.DOWN);
        }
    }

    @Test
    void keyOfAnotherCertificateIsAConfigurationErrorNamingThePrivateKey() throws Exception {
        String yaml = """
                endpoint_url: opc.tcp://127.0.0.1:4840
                identity: {type: x509, certificate: "%s", private_key: "%s"}
                tags: []
                """.formatted(trusted.certificateFile(), stranger.keyFile());
        assertThatThrownBy(() -> ConfigLoader.parse("plc.yaml", yaml, OpcUaConnectionConfig.class, Map.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .containsExactly("identity.private_key"));
        assertThatThrownBy(() -> UserCertificate.load(new OpcUaIdentity.X509(trusted.certificateFile(), stranger.keyFile())))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("does not belong to the certificate")
                .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("identity.private_key"));
    }

    @Test
    void fileThatIsNotACertificateOrAKeyIsNamedWithItsKey() throws Exception {
        Path junk = Files.writeString(dir.resolve("junk.txt"), "not a certificate");
        assertThat(UserCertificate.problem(new OpcUaIdentity.X509(junk, trusted.keyFile())))
                .hasValueSatisfying(v -> assertThat(v.key()).isEqualTo("identity.certificate"));
        assertThat(UserCertificate.problem(new OpcUaIdentity.X509(trusted.certificateFile(), trusted.certificateFile())))
                .hasValueSatisfying(v -> {
                    assertThat(v.key()).isEqualTo("identity.private_key");
                    assertThat(v.message()).contains("no PEM PKCS#8 private key");
                });
        assertThat(UserCertificate.problem(trusted.identity())).isEmpty();
    }

    @Test
    void endpointWithoutACertificateTokenPolicyIsAnErrorSayingSo() {
        OpcUaConnectionConfig config = OpcUaConnectionConfig.of("opc.tcp://127.0.0.1:4840", List.of())
                .withIdentity(trusted.identity());
        EndpointDescription endpoint = new EndpointDescription("opc.tcp://127.0.0.1:4840/x", null, null,
                MessageSecurityMode.None, "http://opcfoundation.org/UA/SecurityPolicy#None",
                new UserTokenPolicy[]{OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS,
                        OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME}, null, null);
        MiloClientFactory factory = new MiloClientFactory("x509", config, Optional.empty());

        assertThatThrownBy(() -> factory.requireTokenPolicy(endpoint))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("offers no X.509 (certificate) user token policy")
                .hasMessageContaining("it offers: anonymous, username");
    }
}
