package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PkiDirectoryTest {

    @Test
    void firstOpenGeneratesTheInstanceCertificateAndLaterOpensReuseIt(@TempDir Path dir) throws Exception {
        PkiDirectory first = PkiDirectory.open(dir, "urn:qubiq:gateway:opcua:plc1");
        assertThat(dir.resolve("own/instance.p12")).exists();
        for (String folder : new String[]{"trusted/certs", "issuers/certs", "rejected"}) {
            assertThat(Files.isDirectory(dir.resolve(folder))).as(folder).isTrue();
        }
        PkiDirectory second = PkiDirectory.open(dir, "urn:qubiq:gateway:opcua:plc1");
        assertThat(second.certificate()).isEqualTo(first.certificate());
        assertThat(first.certificate().getSubjectAlternativeNames().toString()).contains("urn:qubiq:gateway:opcua:plc1");
    }

    @Test
    void trustingACertificateAddsItToTheTrustList(@TempDir Path dir) throws Exception {
        PkiDirectory pki = PkiDirectory.open(dir, "urn:qubiq:gateway:opcua:plc1");
        PkiDirectory other = PkiDirectory.open(dir.resolve("server"), "urn:some:server");
        pki.trust(other.certificate());
        assertThat(pki.trustedCertificates()).contains(other.certificate());
        assertThat(pki.rejectedCertificates()).doesNotContain(other.certificate());
    }
}
