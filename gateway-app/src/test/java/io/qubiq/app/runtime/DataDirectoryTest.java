package io.qubiq.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
