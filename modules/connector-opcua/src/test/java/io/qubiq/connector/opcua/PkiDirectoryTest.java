package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
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

    @Test
    void aNewKeyStoreHasTheInstallationsPasswordAndOnlyItsOwnerCanReadIt(@TempDir Path dir) throws Exception {
        KeyStorePassword installation = () -> "per-installation-secret".toCharArray();
        PkiDirectory pki = PkiDirectory.open(dir.resolve("pki/plc1"), "urn:qubiq:gateway:opcua:plc1", installation);
        Path store = dir.resolve("pki/plc1/own/instance.p12");

        assertThat(opens(store, "per-installation-secret")).isTrue();
        assertThat(opens(store, "qubiq")).as("the former fixed password").isFalse();
        assertThat(PkiDirectory.open(dir.resolve("pki/plc1"), "urn:qubiq:gateway:opcua:plc1", installation)
                .certificate()).isEqualTo(pki.certificate());
        if (io.qubiq.fileops.OwnerOnly.POSIX) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store))).isEqualTo("rw-------");
            for (String folder : new String[] {"pki", "pki/plc1", "pki/plc1/own", "pki/plc1/trusted/certs"}) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(folder))))
                        .as(folder).isEqualTo("rwx------");
            }
        }
    }

    @Test
    void aKeyStoreWithTheFormerFixedPasswordIsMigratedAndKeepsItsCertificate(@TempDir Path dir) throws Exception {
        PkiDirectory old = PkiDirectory.open(dir, "urn:qubiq:gateway:opcua:plc1", KeyStorePassword.legacy());
        Path store = dir.resolve("own/instance.p12");
        assertThat(opens(store, "qubiq")).isTrue();

        PkiDirectory migrated = PkiDirectory.open(dir, "urn:qubiq:gateway:opcua:plc1", () -> "new-secret".toCharArray());
        assertThat(migrated.certificate()).isEqualTo(old.certificate());
        assertThat(migrated.keyPair().getPrivate()).isEqualTo(old.keyPair().getPrivate());
        assertThat(opens(store, "new-secret")).isTrue();
        assertThat(opens(store, "qubiq")).isFalse();
        assertThat(dir.resolve("own/instance.p12.tmp")).doesNotExist();

        assertThat(PkiDirectory.open(dir, "urn:qubiq:gateway:opcua:plc1", () -> "new-secret".toCharArray())
                .certificate()).isEqualTo(old.certificate());
        assertThatThrownBy(() -> PkiDirectory.open(dir, "urn:qubiq:gateway:opcua:plc1", () -> "wrong".toCharArray()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot open the OPC UA key store", "opcua-pki-keystore", "delete");
    }

    private static boolean opens(Path store, String password) throws Exception {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore.getInstance("PKCS12").load(in, password.toCharArray());
            return true;
        } catch (IOException wrongPassword) {
            return false;
        }
    }
}
