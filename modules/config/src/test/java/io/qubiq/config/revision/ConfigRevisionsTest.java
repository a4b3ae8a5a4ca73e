package io.qubiq.config.revision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.fileops.FileOps;
import io.qubiq.fileops.NewerFormatException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigRevisionsTest {

    private static final String V1 = "# plant\ngateway:\n  name: line-3\n";
    private static final String V2 = "# plant\ngateway:\n  name: line-4\n";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-03T08:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path home;
    Path file;
    Path dir;

    @BeforeEach
    void writeFile() throws IOException {
        file = home.resolve("etc/gateway.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, V1);
        dir = home.resolve("data/config-revisions");
    }

    private ConfigRevisions open(FileOps files) throws IOException {
        return ConfigRevisions.open(file, dir, files, CLOCK, 5);
    }

    @Test
    void theFileAtFirstOpenIsRevisionOneNamedByTheHashOfItsBytes() throws Exception {
        ConfigRevisions revisions = open(FileOps.system());
        Revision first = revisions.current();
        assertThat(first.number()).isEqualTo(1);
        assertThat(first.token()).isEqualTo(ConfigRevisions.token(V1.getBytes(StandardCharsets.UTF_8))).hasSize(64);
        assertThat(first.source()).isEqualTo("file");
        assertThat(revisions.text(first)).isEqualTo(V1);
        assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-config-revisions format 1\n");
    }

    @Test
    void aCommitWritesTheFileAndKeepsWhoWhenWhyAndWhatItWasMadeOn() throws Exception {
        ConfigRevisions revisions = open(FileOps.system());
        Revision base = revisions.current();
        Revision second = revisions.commit(V2, base.token(), "alice", "console", "renamed the line");
        assertThat(Files.readString(file)).isEqualTo(V2);
        assertThat(second.number()).isEqualTo(2);
        assertThat(second.parent()).contains(1L);
        assertThat(second).extracting(Revision::author, Revision::source, Revision::comment, Revision::at)
                .containsExactly("alice", "console", "renamed the line", CLOCK.instant());
        assertThat(revisions.list()).extracting(Revision::number).containsExactly(2L, 1L);
        assertThat(revisions.find(second.token().substring(0, 8))).contains(second);
        assertThat(revisions.find("1")).contains(base);

        ConfigRevisions reopened = open(FileOps.system());
        assertThat(reopened.list()).containsExactlyElementsOf(revisions.list());
        assertThat(reopened.text(reopened.current())).isEqualTo(V2);
    }

    @Test
    void aChangeMadeOnAnOlderRevisionIsRefusedWithTheCurrentTextAndWritesNothing() throws Exception {
        ConfigRevisions revisions = open(FileOps.system());
        String base = revisions.current().token();
        revisions.commit(V2, base, "alice", "console", "");
        assertThatThrownBy(() -> revisions.commit("gateway:\n  name: x\n", base, "bob", "api", ""))
                .isInstanceOfSatisfying(StaleRevisionException.class, e -> {
                    assertThat(e.currentText()).isEqualTo(V2);
                    assertThat(e.getMessage()).contains("reload it");
                });
        assertThat(Files.readString(file)).isEqualTo(V2);
        assertThat(revisions.list()).hasSize(2);
    }

    @Test
    void aHandEditIsRecordedAsARevisionOfItsOwnBeforeTheNextChange() throws Exception {
        ConfigRevisions revisions = open(FileOps.system());
        Files.writeString(file, V2);
        assertThatThrownBy(() -> revisions.commit(V1 + "x: 1\n", revisions.current().token(), "alice", "console", ""))
                .isInstanceOf(StaleRevisionException.class);
        Revision found = revisions.recordFileIfChanged();
        assertThat(found.number()).isEqualTo(2);
        assertThat(found.source()).isEqualTo("file");
        assertThat(found.comment()).contains("changed outside the gateway");
        assertThat(revisions.text(found)).isEqualTo(V2);
        assertThat(open(FileOps.system()).current()).isEqualTo(found);
    }

    @Test
    void writingTheTextTheFileAlreadyHoldsChangesNothing() throws Exception {
        ConfigRevisions revisions = open(FileOps.system());
        Revision same = revisions.commit(V1, revisions.current().token(), "alice", "import", "");
        assertThat(same.number()).isEqualTo(1);
        assertThat(revisions.list()).hasSize(1);
    }

    /** Would catch a revision that claims to be the configuration although its file write never happened. */
    @Test
    void aRevisionWrittenWhenTheFileWriteFailedIsSetAsideAtOpenAndTheFileIsUnchanged() throws Exception {
        open(FileOps.system());
        FileOps failingOnTheConfigFile = new DelegatingFileOps() {
            @Override
            public void move(Path source, Path target) throws IOException {
                if (target.equals(file)) {
                    throw new IOException("No space left on device");
                }
                super.move(source, target);
            }
        };
        ConfigRevisions revisions = open(failingOnTheConfigFile);
        assertThatThrownBy(() -> revisions.commit(V2, revisions.current().token(), "alice", "console", ""))
                .isInstanceOf(IOException.class).hasMessageContaining(file.toString())
                .hasMessageContaining("it is unchanged");
        assertThat(Files.readString(file)).isEqualTo(V1);
        assertThat(dir.resolve("000002.yaml")).exists(); // what the crash (here: the failure) left

        ConfigRevisions reopened = open(FileOps.system());
        assertThat(reopened.current().number()).isEqualTo(1);
        assertThat(dir.resolve("unapplied/000002.yaml")).exists();
        assertThat(file.resolveSibling(".gateway.yaml.qubiq.tmp")).doesNotExist();
    }

    @Test
    void aDamagedRevisionIsSetAsideAndCountedNotTrusted() throws Exception {
        ConfigRevisions revisions = open(FileOps.system());
        revisions.commit(V2, revisions.current().token(), "alice", "console", "");
        Files.writeString(dir.resolve("000001.yaml"), "flipped");
        ConfigRevisions reopened = open(FileOps.system());
        assertThat(reopened.setAside()).isEqualTo(1);
        assertThat(reopened.list()).extracting(Revision::number).containsExactly(2L);
        assertThat(dir.resolve("corrupt/000001.yaml")).exists();
    }

    @Test
    void onlyTheNewestRevisionsAreKept() throws Exception {
        ConfigRevisions revisions = open(FileOps.system());
        for (int i = 0; i < 7; i++) {
            revisions.commit("n: " + i + "\n", revisions.current().token(), "alice", "api", "");
        }
        assertThat(revisions.list()).extracting(Revision::number).containsExactly(8L, 7L, 6L, 5L, 4L);
        assertThat(dir.resolve("000001.yaml")).doesNotExist();
    }

    @Test
    void theFileKeepsItsPermissions() throws Exception {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        ConfigRevisions revisions = open(FileOps.system());
        revisions.commit(V2, revisions.current().token(), "alice", "console", "");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
    }

    @Test
    void revisionsWrittenByANewerGatewayAreRefusedBeforeAnythingChanges() throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("FORMAT"), "qubiq-config-revisions format 2\n");
        assertThatThrownBy(() -> open(FileOps.system())).isInstanceOf(NewerFormatException.class);
        assertThat(Files.list(dir).toList()).hasSize(1);
    }

    /** The real file system, for tests that fail one operation. */
    private static class DelegatingFileOps implements FileOps {
        @Override
        public FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException {
            return FileOps.system().open(path, options);
        }

        @Override
        public void move(Path source, Path target) throws IOException {
            FileOps.system().move(source, target);
        }

        @Override
        public boolean deleteIfExists(Path path) throws IOException {
            return FileOps.system().deleteIfExists(path);
        }

        @Override
        public void createDirectories(Path path) throws IOException {
            FileOps.system().createDirectories(path);
        }

        @Override
        public void syncDirectory(Path path) throws IOException {
            FileOps.system().syncDirectory(path);
        }
    }
}
