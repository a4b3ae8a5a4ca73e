package io.qubiq.fileops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one-line format file every directory store keeps: what it refuses, what it repairs. */
class StoreFormatTest {

  private static final StoreFormat BUFFER = new StoreFormat("qubiq-buffer", "buffer", 1);

  @TempDir
  Path dir;

  @Test
  void aDirectoryWithoutTheFileIsAcceptedAndGetsTheCurrentLine() throws IOException {
    StoreFormat.Check check = BUFFER.check(dir);

    assertThat(check.version()).isEmpty();
    BUFFER.record(dir, check, FileOps.system());
    assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-buffer format 1\n");
    assertThat(dir.resolve("FORMAT.tmp")).doesNotExist();
    assertThat(BUFFER.check(dir).version()).contains(1);
  }

  @Test
  void aNewerVersionIsRefusedNamingTheFileBothVersionsAndTheWayOutAndNothingIsWritten()
      throws IOException {
    Files.writeString(dir.resolve("FORMAT"), "qubiq-buffer format 2\n");

    assertThatThrownBy(() -> BUFFER.check(dir))
        .isInstanceOf(NewerFormatException.class)
        .hasMessageContaining(dir.resolve("FORMAT").toString())
        .hasMessageContaining("format version 2, newer than version 1")
        .hasMessageContaining("Nothing was changed")
        .hasMessageContaining("move " + dir + " aside");
    assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-buffer format 2\n");
  }

  @Test
  void anOlderVersionIsReadAndRaisedToTheCurrentOne() throws IOException {
    StoreFormat v3 = new StoreFormat("qubiq-buffer", "buffer", 3);
    Files.writeString(dir.resolve("FORMAT"), "qubiq-buffer format 2\n");

    StoreFormat.Check check = v3.check(dir);
    v3.record(dir, check, FileOps.system());

    assertThat(check.version()).contains(2);
    assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-buffer format 3\n");
  }

  @Test
  void anotherStoresDirectoryIsRefusedNamingBothKinds() throws IOException {
    Files.writeString(dir.resolve("FORMAT"), "qubiq-audit format 1\n");

    assertThatThrownBy(() -> BUFFER.check(dir))
        .isNotInstanceOf(NewerFormatException.class)
        .hasMessageContaining("holds a qubiq-audit store, not a qubiq-buffer store");
  }

  @Test
  void anUnreadableLineIsDamageThatIsRepairedNotARefusal() throws IOException {
    Files.write(dir.resolve("FORMAT"), new byte[] {'q', 0, (byte) 0xff, '\n'});

    StoreFormat.Check check = BUFFER.check(dir);
    BUFFER.record(dir, check, FileOps.system());

    assertThat(check).isEqualTo(new StoreFormat.Check(Optional.empty(), true));
    assertThat(Files.readString(dir.resolve("FORMAT"))).isEqualTo("qubiq-buffer format 1\n");
  }

  @Test
  void theCurrentLineIsNotWrittenAgain() throws IOException {
    BUFFER.record(dir, BUFFER.check(dir), FileOps.system());
    Files.setLastModifiedTime(dir.resolve("FORMAT"), java.nio.file.attribute.FileTime.fromMillis(0));

    BUFFER.record(dir, BUFFER.check(dir), FileOps.system());

    assertThat(Files.getLastModifiedTime(dir.resolve("FORMAT")).toMillis()).isZero();
  }
}
