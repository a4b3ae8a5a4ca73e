package io.qubiq.config.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.fileops.FileOps;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretStoreTest {

    @TempDir
    Path data;

    private Path dir() {
        return data.resolve(SecretStore.DIRECTORY);
    }

    @Test
    void aStoreWithNoSecretsCreatesNothing() throws IOException {
        SecretStore store = SecretStore.open(dir(), FileOps.system());

        assertThat(store.secret("a-1")).isEmpty();
        assertThat(dir()).doesNotExist();
    }

    @Test
    void keptSecretsAreReadBackByTheNextOpenAndOnlyTheOwnerCanReadThem() throws IOException {
        SecretStore store = SecretStore.open(dir(), FileOps.system());
        store.keep(Map.of("outbound.db.sql.password-1", "pä ss=word:#!\nline2"));

        SecretStore again = SecretStore.open(dir(), FileOps.system());

        assertThat(again.secret("outbound.db.sql.password-1")).contains("pä ss=word:#!\nline2");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir()))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir().resolve(SecretStore.FILE))))
                .isEqualTo("rw-------");
        assertThat(Files.readString(dir().resolve("FORMAT"))).startsWith("qubiq-secrets format 1");
    }

    @Test
    void aStoreCopiedWithLooserPermissionsIsTightenedAtOpen() throws IOException {
        SecretStore.open(dir(), FileOps.system()).keep(Map.of("a-1", "x"));
        Files.setPosixFilePermissions(dir().resolve(SecretStore.FILE), PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(dir(), PosixFilePermissions.fromString("rwxr-xr-x"));

        SecretStore.open(dir(), FileOps.system());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir().resolve(SecretStore.FILE))))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir()))).isEqualTo("rwx------");
    }

    @Test
    void aNewValueOfTheSameKeyGetsANewNameSoOlderRevisionsKeepTheirs() throws IOException {
        SecretStore store = SecretStore.open(dir(), FileOps.system());
        String first = store.newName("devices.plc-1.opcua.password", Set.of());
        store.keep(Map.of(first, "one"));
        String second = store.newName("devices.plc-1.opcua.password", Set.of());
        String quoted = store.newName("devices.\"a b\".password", Set.of("devices._a_b_.password-1"));

        assertThat(first).isEqualTo("devices.plc-1.opcua.password-1");
        assertThat(second).isEqualTo("devices.plc-1.opcua.password-2");
        assertThat(quoted).isEqualTo("devices._a_b_.password-2");
    }

    @Test
    void retainOnlyRemovesWhatNothingNamesDurably() throws IOException {
        SecretStore store = SecretStore.open(dir(), FileOps.system());
        store.keep(Map.of("a-1", "x", "a-2", "y", "b-1", "z"));
        String text = "password: ${secret:a-2}\nother: {password: \"${secret:b-1}\"}\n";

        int removed = store.retainOnly(SecretStore.referencedBy(text)::contains);

        assertThat(removed).isEqualTo(1);
        assertThat(SecretStore.open(dir(), FileOps.system()).names()).containsExactlyInAnyOrder("a-2", "b-1");
    }

    @Test
    void aWriteThatFailsLeavesTheStoreAsItWasAndNoTempFile() throws IOException {
        SecretStore.open(dir(), FileOps.system()).keep(Map.of("a-1", "x"));
        FileOps failingMove = new FileOps() {
            @Override
            public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
                return FileOps.system().open(path, options);
            }

            @Override
            public void move(Path source, Path target) throws IOException {
                throw new IOException("injected: rename failed");
            }

            @Override
            public boolean deleteIfExists(Path path) throws IOException {
                return FileOps.system().deleteIfExists(path);
            }

            @Override
            public void createDirectories(Path dir) throws IOException {
                FileOps.system().createDirectories(dir);
            }

            @Override
            public void syncDirectory(Path dir) throws IOException {
                FileOps.system().syncDirectory(dir);
            }
        };
        SecretStore store = SecretStore.open(dir(), failingMove);

        assertThatThrownBy(() -> store.keep(Map.of("b-1", "y"))).hasMessageContaining("injected");

        assertThat(store.secret("b-1")).as("the store in memory").isEmpty();
        SecretStore reopened = SecretStore.open(dir(), FileOps.system());
        assertThat(reopened.names()).containsExactly("a-1");
        assertThat(dir().resolve(SecretStore.FILE + ".tmp")).as("a leftover temp is deleted at open").doesNotExist();
    }

    @Test
    void aLineThatIsNotASecretRefusesToOpenNamingTheFile() throws IOException {
        SecretStore.open(dir(), FileOps.system()).keep(Map.of("a-1", "x"));
        Files.writeString(dir().resolve(SecretStore.FILE), "bad/name=x\n");

        assertThatThrownBy(() -> SecretStore.open(dir(), FileOps.system()))
                .hasMessageContaining(dir().resolve(SecretStore.FILE).toString())
                .hasMessageContaining("is not a secret's name");
    }

    @Test
    void noneKeepsNothing() {
        assertThatThrownBy(() -> SecretStore.none().keep(Map.of("a-1", "x")))
                .hasMessageContaining("no data directory");
    }

    @Test
    void aGeneratedSecretIsMadeOnceKeptOwnerOnlyAndSurvivesRetainOnly() throws IOException {
        SecretStore store = SecretStore.open(dir(), FileOps.system());
        String password = store.generated(SecretStore.OPCUA_PKI_KEYSTORE);
        assertThat(password).hasSizeGreaterThanOrEqualTo(40).isNotEqualTo("qubiq");
        assertThat(store.generated(SecretStore.OPCUA_PKI_KEYSTORE)).isEqualTo(password);
        assertThat(SecretStore.open(dir(), FileOps.system()).secret(SecretStore.OPCUA_PKI_KEYSTORE)).contains(password);
        assertThat(Files.getPosixFilePermissions(dir().resolve(SecretStore.FILE)))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));

        store.keep(Map.of("a-1", "x"));
        assertThat(store.retainOnly(name -> false)).isEqualTo(1);
        assertThat(SecretStore.open(dir(), FileOps.system()).names()).containsExactly(SecretStore.OPCUA_PKI_KEYSTORE);
        assertThatThrownBy(() -> store.generated("a-2")).hasMessageContaining("not a secret the gateway generates");
    }

    @Test
    void aWriteThroughOneHandleDoesNotUndoWhatAnotherHandleKept() throws IOException {
        SecretStore configuration = SecretStore.open(dir(), FileOps.system());
        configuration.keep(Map.of("a-1", "x"));
        SecretStore wiring = SecretStore.open(dir(), FileOps.system());
        String password = wiring.generated(SecretStore.EMBEDDED_QUESTDB_PASSWORD);

        configuration.keep(Map.of("b-1", "y"));
        assertThat(SecretStore.open(dir(), FileOps.system()).secret(SecretStore.EMBEDDED_QUESTDB_PASSWORD))
                .contains(password);
        assertThat(wiring.generated(SecretStore.EMBEDDED_QUESTDB_PASSWORD)).isEqualTo(password);
        assertThat(SecretStore.open(dir(), FileOps.system()).names()).contains("a-1", "b-1");
    }
}
