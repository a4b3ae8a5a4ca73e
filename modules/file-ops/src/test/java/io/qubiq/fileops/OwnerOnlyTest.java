package io.qubiq.fileops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnerOnlyTest {

    @TempDir
    Path dir;

    @BeforeEach
    void posixOnly() {
        assumeTrue(OwnerOnly.POSIX, "owner-only permissions are POSIX permissions");
    }

    @Test
    void filesAndDirectoriesCreatedThroughTheSystemFileOpsAreOwnerOnly() throws IOException {
        Path nested = dir.resolve("a/b/c");
        FileOps.system().createDirectories(nested);
        try (FileChannel channel = FileOps.system().open(nested.resolve("segment"),
                EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE))) {
            channel.force(true);
        }
        for (Path created : new Path[] {dir.resolve("a"), dir.resolve("a/b"), nested}) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created))).as(created.toString())
                    .isEqualTo("rwx------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested.resolve("segment"))))
                .isEqualTo("rw-------");
    }

    @Test
    void anExistingFileKeepsItsPermissionsUntilTightened() throws IOException {
        Path file = Files.createFile(dir.resolve("users.properties"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
        FileOps.system().open(file, EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE)).close();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r--r--");

        assertThat(OwnerOnly.tighten(file)).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(OwnerOnly.tighten(file)).isFalse();
    }
}
