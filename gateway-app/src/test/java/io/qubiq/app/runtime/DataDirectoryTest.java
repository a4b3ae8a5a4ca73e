package io.qubiq.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.fileops.OwnerOnly;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {

    @TempDir
    Path temp;

    @Test
    void createsTheDirectoryAndRecordsTheOwnerPid() throws Exception {
        Path dir = temp.resolve("nested/data");
        try (DataDirectory data = DataDirectory.open(dir)) {
            assertThat(dir).isDirectory();
            assertThat(Files.readString(dir.resolve(DataDirectory.LOCK_FILE)).trim())
                    .isEqualTo(String.valueOf(ProcessHandle.current().pid()));
            assertThat(data.resolve("logs")).isDirectory();
        }
    }

    @Test
    void secondOpenWhileHeldFailsNamingTheHolderPid() throws Exception {
        try (DataDirectory held = DataDirectory.open(temp)) {
            assertThatThrownBy(() -> DataDirectory.open(temp))
                    .isInstanceOf(DataDirectoryException.class)
                    .hasMessageContaining("is in use by another gateway (PID " + ProcessHandle.current().pid() + ")")
                    .hasMessageContaining("--data-dir");
        }
    }

    @Test
    void closingReleasesTheLockForTheNextGateway() throws Exception {
        DataDirectory.open(temp).close();
        try (DataDirectory reopened = DataDirectory.open(temp)) {
            assertThat(reopened.root()).isEqualTo(temp.toAbsolutePath().normalize());
        }
    }

    @Test
    void subdirectoriesCannotEscapeTheDataDirectory() throws Exception {
        try (DataDirectory data = DataDirectory.open(temp)) {
            assertThatThrownBy(() -> data.resolve("../elsewhere"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("outside the data directory");
        }
    }

    @Test
    void aNewDataDirectoryAndItsFoldersAreTheGatewayUsersAlone() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(OwnerOnly.POSIX);
        Path dir = temp.resolve("fresh");
        try (DataDirectory data = DataDirectory.open(dir)) {
            assertThat(mode(dir)).isEqualTo("rwx------");
            assertThat(mode(data.resolve("connections/historian"))).isEqualTo("rwx------");
            assertThat(mode(dir.resolve("connections"))).isEqualTo("rwx------");
            assertThat(mode(dir.resolve(DataDirectory.LOCK_FILE))).isEqualTo("rw-------");
            assertThat(data.permissionWarning()).isEmpty();
        }
    }

    @Test
    void whatOtherUsersCouldReadIsNamedOnceAndTheDirectoryIsClosed() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(OwnerOnly.POSIX);
        Path dir = temp.resolve("copied");
        Files.createDirectories(dir.resolve("auth"));
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("auth/users.properties"), "admin=...");
        Files.writeString(dir.resolve("logs/qubiq.log"), "setup token ...");
        Files.writeString(dir.resolve("logs/private.log"), "x");
        for (Path open : new Path[] {dir, dir.resolve("auth"), dir.resolve("logs")}) {
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.setPosixFilePermissions(dir.resolve("auth/users.properties"), PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(dir.resolve("logs/qubiq.log"), PosixFilePermissions.fromString("rw-r-----"));
        Files.setPosixFilePermissions(dir.resolve("logs/private.log"), PosixFilePermissions.fromString("rw-------"));

        try (DataDirectory data = DataDirectory.open(dir)) {
            String root = dir.toAbsolutePath().normalize().toString();
            assertThat(data.permissionWarning()).hasValueSatisfying(warning -> assertThat(warning)
                    .contains("paths in the data directory could be read by other local users", "auth/users.properties",
                            "logs/qubiq.log", "chmod -R go-rwx " + root)
                    .doesNotContain("private.log"));
            assertThat(mode(dir)).isEqualTo("rwx------");
            assertThat(mode(dir.resolve("auth"))).isEqualTo("rwx------");
            assertThat(mode(dir.resolve("logs"))).isEqualTo("rwx------");
        }
        try (DataDirectory again = DataDirectory.open(dir)) {
            assertThat(again.permissionWarning()).as("closed now: nothing is reachable").isEmpty();
        }
    }

    private static String mode(Path path) throws java.io.IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
