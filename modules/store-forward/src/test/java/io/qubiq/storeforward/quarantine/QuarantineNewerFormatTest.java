package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.fileops.NewerFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quarantine written before the format line existed opens and gets one; a quarantine marked by a
 * newer gateway is refused before recovery moves or deletes anything (without the gate, the old
 * code ignored the line and opened, setting aside any entry it could not read as damage).
 */
class QuarantineNewerFormatTest {

    @TempDir
    Path temp;
    private Path dir;

    @BeforeEach
    void copyVersionOneFixture() throws Exception {
        Path fixture = Path.of(getClass().getResource("/quarantine/format-v1").toURI());
        dir = Files.createDirectories(temp.resolve("quarantine"));
        try (Stream<Path> files = Files.list(fixture)) {
            for (Path file : files.toList()) {
                Files.copy(file, dir.resolve(file.getFileName()));
            }
        }
    }

    @Test
    void aQuarantineFromBeforeTheFormatLineOpensWithItsEntriesAndIsMarkedVersionOne() throws Exception {
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, 1024 * 1024)) {
            assertThat(store.size()).isEqualTo(4);
            assertThat(store.setAside()).isZero();
        }
        assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-quarantine format 1\n");
    }

    @Test
    void aQuarantineMarkedByANewerGatewayIsRefusedAndNothingInItChanges() throws Exception {
        Files.writeString(dir.resolve("FORMAT"), "qubiq-quarantine format 2\n");
        Files.writeString(dir.resolve("00000000000000000099.qentry"), "an entry of format 2 this gateway cannot read");
        Files.writeString(dir.resolve("00000000000000000100.qentry.tmp"), "an add in progress");
        Map<String, String> before = contents(dir);

        assertThatThrownBy(() -> FileQuarantineStore.open(dir, 1024 * 1024))
                .isInstanceOf(NewerFormatException.class)
                .hasMessageContaining("quarantine " + dir.resolve("FORMAT"))
                .hasMessageContaining("format version 2, newer than version 1");
        assertThat(contents(dir)).as("nothing set aside, no temp file deleted").isEqualTo(before);
        assertThat(dir.resolve("corrupt")).doesNotExist();
    }

    @Test
    void theLockIsReleasedAfterARefusalSoTheNewerGatewayCanOpenIt() throws Exception {
        Files.writeString(dir.resolve("FORMAT"), "qubiq-quarantine format 2\n");
        assertThatThrownBy(() -> FileQuarantineStore.open(dir, 1024 * 1024)).isInstanceOf(NewerFormatException.class);

        Files.writeString(dir.resolve("FORMAT"), "qubiq-quarantine format 1\n"); // as a downgrade tool would
        try (FileQuarantineStore store = FileQuarantineStore.open(dir, 1024 * 1024)) {
            assertThat(store.size()).isEqualTo(4);
        }
    }

    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                if (!file.getFileName().toString().equals(QuarantineDirectoryLock.FILE_NAME)) {
                    files.put(dir.relativize(file).toString(), HexFormat.of().formatHex(Files.readAllBytes(file)));
                }
            }
        }
        return files;
    }
}
