package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.tag.TagPath;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(OpcUaServerExtension.class)
class OpcUaSecurityTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    private static OpcUaConnectionConfig config(TestOpcUaServer server, SecurityPolicyName policy, SecurityModeName mode,
                                                OpcUaIdentity identity, Path pki) {
        OpcUaTagConfig tag = new OpcUaTagConfig("plant/int32", server.nodeId(TestVariable.INT32), 50, 1,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
        return new OpcUaConnectionConfig(server.endpointUrl(), policy, mode, identity, Optional.of(pki), 1000, 60000, 100, 500, 0,
                AcquisitionMode.SUBSCRIPTION, 1000, 100, 1000, OpcUaTagDefaults.STANDARD, List.of(tag));
    }

    @Test
    void untrustedServerCertificateIsRejectedUntilTheOperatorTrustsIt(TestOpcUaServer server, @TempDir Path pki) {
        RecordingPublisher publisher = new RecordingPublisher();
        try (OpcUaConnector connector = new OpcUaConnector("secure1", config(server, SecurityPolicyName.BASIC256SHA256,
                SecurityModeName.SIGN_AND_ENCRYPT, new OpcUaIdentity.Anonymous(), pki))) {
            connector.start(publisher);

            await().atMost(WAIT).until(() -> connector.pki().map(p -> p.rejectedCertificates().contains(
                    server.certificate())).orElse(false));
            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
            assertThat(pki.resolve("own/instance.p12")).exists();
            assertThat(pki.resolve("rejected")).isNotEmptyDirectory();

            connector.pki().orElseThrow().trust(server.certificate());

            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
            await().atMost(WAIT).until(() -> publisher.latest("plant/int32")
                    .filter(v -> v.quality().isGood() && Integer.valueOf(42).equals(v.value())).isPresent());
        }
    }

    @Test
    void theRejectedCertificateIsListedByThumbprintAndTrustingItByThumbprintConnectsAtOnce(TestOpcUaServer server,
                                                                                          @TempDir Path pki)
            throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        // a long backoff: the connection must come up because trusting makes the next attempt now
        OpcUaConnectionConfig config = config(server, SecurityPolicyName.BASIC256SHA256,
                SecurityModeName.SIGN_AND_ENCRYPT, new OpcUaIdentity.Anonymous(), pki).withReconnect(60_000, 60_000);
        String thumbprint = CertificateEntry.thumbprint(server.certificate());
        try (OpcUaConnector connector = new OpcUaConnector("secure2", config)) {
            assertThat(connector.certificateDirectory()).as("opened before the first attempt").isPresent();
            assertThat(connector.certificateDirectory().orElseThrow().serverCertificates()).isEmpty();
            connector.start(publisher);

            List<CertificateEntry> listed = await().atMost(WAIT).until(
                    () -> connector.certificateDirectory().orElseThrow().serverCertificates(), l -> !l.isEmpty());
            assertThat(listed).singleElement().satisfies(entry -> {
                assertThat(entry.thumbprint()).isEqualTo(thumbprint).hasSize(40);
                assertThat(entry.folder()).isEqualTo(CertificateEntry.Folder.REJECTED);
                assertThat(entry.subject()).isEqualTo(server.certificate().getSubjectX500Principal().getName());
                assertThat(entry.notAfter()).isAfter(entry.notBefore());
            });
            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
            assertThat(connector.trustServerCertificate("00".repeat(20))).as("no such certificate").isEmpty();

            String viewerStyle = thumbprint.toUpperCase().replaceAll("(..)(?!$)", "$1:");
            Optional<CertificateEntry> trusted = connector.trustServerCertificate(viewerStyle);

            assertThat(trusted).hasValueSatisfying(entry ->
                    assertThat(entry.folder()).isEqualTo(CertificateEntry.Folder.TRUSTED));
            assertThat(connector.certificateDirectory().orElseThrow().serverCertificates())
                    .extracting(CertificateEntry::folder).containsExactly(CertificateEntry.Folder.TRUSTED);
            assertThat(pki.resolve("trusted/certs")).isNotEmptyDirectory();
            assertThat(pki.resolve("rejected")).isEmptyDirectory();
            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
            await().atMost(WAIT).until(() -> publisher.latest("plant/int32").filter(v -> v.quality().isGood()).isPresent());
            assertThat(connector.trustServerCertificate(thumbprint)).as("trusting again changes nothing")
                    .hasValueSatisfying(entry -> assertThat(entry.folder()).isEqualTo(CertificateEntry.Folder.TRUSTED));
        }
    }

    @Test
    void aThumbprintThatIsNotFortyHexDigitsIsRefusedAndAnUnsecuredConnectionHasNoCertificates(
            TestOpcUaServer server, @TempDir Path pki) throws Exception {
        try (OpcUaConnector secured = new OpcUaConnector("secure3", config(server, SecurityPolicyName.BASIC256SHA256,
                SecurityModeName.SIGN_AND_ENCRYPT, new OpcUaIdentity.Anonymous(), pki));
             OpcUaConnector open = new OpcUaConnector("open1", config(server, SecurityPolicyName.NONE,
                     SecurityModeName.NONE, new OpcUaIdentity.Anonymous(), pki.resolve("none")))) {
            assertThatThrownBy(() -> secured.trustServerCertificate("abc123"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("40 hex digits");
            assertThat(open.certificateDirectory()).isEmpty();
            assertThat(open.trustServerCertificate("00".repeat(20))).isEmpty();
            assertThat(pki.resolve("none")).doesNotExist();
        }
    }

    @Test
    void usernameIdentityOpensASessionAndAWrongPasswordKeepsTheConnectionDown(TestOpcUaServer server,
                                                                              @TempDir Path pki) {
        RecordingPublisher publisher = new RecordingPublisher();
        try (OpcUaConnector good = new OpcUaConnector("user1", config(server, SecurityPolicyName.NONE,
                SecurityModeName.NONE, new OpcUaIdentity.Username(TestOpcUaServer.USERNAME, TestOpcUaServer.PASSWORD),
                pki));
             OpcUaConnector bad = new OpcUaConnector("user2", config(server, SecurityPolicyName.NONE,
                     SecurityModeName.NONE, new OpcUaIdentity.Username(TestOpcUaServer.USERNAME, "wrong"), pki))) {
            good.start(publisher);
            bad.start(new RecordingPublisher());

            await().atMost(WAIT).until(() -> good.status().state() == ConnectionState.UP);
            await().atMost(WAIT).until(() -> bad.status().state() == ConnectionState.DOWN);
            assertThat(bad.status().lastError()).hasValueSatisfying(e -> assertThat(e).doesNotContain("wrong"));
            assertThat(bad.write(TagPath.of("plant/int32"), 1)).isCompletedExceptionally();
        }
    }

    @Test
    void usernameOverSecurityPolicyNoneIsWarnedAboutAndOtherCombinationsAreNot(TestOpcUaServer server,
                                                                              @TempDir Path pki) {
        OpcUaIdentity user = new OpcUaIdentity.Username(TestOpcUaServer.USERNAME, TestOpcUaServer.PASSWORD);
        try (OpcUaConnector clear = new OpcUaConnector("clear", config(server, SecurityPolicyName.NONE,
                SecurityModeName.NONE, user, pki));
             OpcUaConnector anonymous = new OpcUaConnector("anonymous", config(server, SecurityPolicyName.NONE,
                     SecurityModeName.NONE, new OpcUaIdentity.Anonymous(), pki));
             OpcUaConnector secured = new OpcUaConnector("secured", config(server,
                     SecurityPolicyName.BASIC256SHA256, SecurityModeName.SIGN_AND_ENCRYPT, user, pki))) {
            clear.start(new RecordingPublisher());
            anonymous.start(new RecordingPublisher());

            await().atMost(WAIT).until(() -> clear.status().state() == ConnectionState.UP
                    && anonymous.status().state() == ConnectionState.UP);
            assertThat(credentialsWarnings(clear)).singleElement().asString().contains(TestOpcUaServer.USERNAME)
                    .contains("security_policy").contains("basic256sha256").doesNotContain(TestOpcUaServer.PASSWORD);
            assertThat(credentialsWarnings(anonymous)).isEmpty();
            assertThat(credentialsWarnings(secured)).isEmpty();
        }
    }

    private static List<String> credentialsWarnings(OpcUaConnector connector) {
        return connector.warnings().stream().filter(w -> w.startsWith("credentialsInClear:")).toList();
    }
}
