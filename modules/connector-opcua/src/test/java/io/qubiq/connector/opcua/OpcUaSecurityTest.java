package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
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
                AcquisitionMode.SUBSCRIPTION, 1000, 100, 1000, List.of(tag));
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
}
