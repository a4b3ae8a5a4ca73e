package io.qubiq.fileops.powerloss;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder logs what a power cut depends on, and the generator leaves nothing durable out. */
class CrashStatesTest {
  @TempDir Path temp;

  private static final EnumSet<StandardOpenOption> CREATE_WRITE =
      EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);

  @Test
  void aForcedWriteSurvivesEveryStateAndALaterOneIsSometimesDroppedAndSometimesTorn()
      throws IOException {
    Path dir = Files.createDirectories(temp.resolve("run"));
    RecordingFileOps files = new RecordingFileOps(dir);
    try (FileChannel channel = files.open(dir.resolve("f"), CREATE_WRITE)) {
      channel.write(ByteBuffer.wrap(bytes("durable.")), 0);
      channel.force(false);
      channel.write(ByteBuffer.wrap(bytes("pending")), 8);
    }
    List<String> contents = replayAll(files.log(), "f");
    assertThat(contents).as("a state before the first fsync may lack even the first write")
        .contains("");
    List<String> afterForce = new ArrayList<>();
    List<CrashState> states = CrashStates.generate(files.log(), 1);
    for (CrashState state : states) {
      if (state.crashPoint() > 3) {
        afterForce.add(replay(files.log(), state, "f"));
      }
    }
    assertThat(afterForce).allMatch(s -> s.startsWith("durable."));
    assertThat(afterForce).contains("durable.", "durable.pending");
    assertThat(afterForce).anyMatch(s -> s.length() > 8 && s.length() < 15); // torn
  }

  @Test
  void aRenameNotFollowedByADirectorySyncMayBeUndoneAndOneFollowedByItMayNot()
      throws IOException {
    Path dir = Files.createDirectories(temp.resolve("run"));
    RecordingFileOps files = new RecordingFileOps(dir);
    try (FileChannel channel = files.open(dir.resolve("a.tmp"), CREATE_WRITE)) {
      channel.write(ByteBuffer.wrap(bytes("x")), 0);
      channel.force(false);
    }
    files.move(dir.resolve("a.tmp"), dir.resolve("a"));
    files.note("renamed");
    files.syncDirectory(dir);
    List<FileOp> log = files.log();
    boolean undoneBeforeSync = false;
    for (CrashState state : CrashStates.generate(log, 1)) {
      Path out = Files.createTempDirectory(temp, "state");
      state.replay(log, out);
      boolean renamed = Files.exists(out.resolve("a"));
      if (state.crashPoint() == log.size()) {
        assertThat(renamed).as(state.description()).isTrue();
      } else if (state.notesBefore(log).contains("renamed") && !renamed) {
        undoneBeforeSync = true;
        assertThat(out.resolve("a.tmp")).as(state.description()).exists();
      }
    }
    assertThat(undoneBeforeSync).isTrue();
  }

  @Test
  void bytesStoredThroughAMappingAreLoggedAsWrites() throws IOException {
    Path dir = Files.createDirectories(temp.resolve("run"));
    RecordingFileOps files = new RecordingFileOps(dir);
    try (FileChannel channel = files.open(dir.resolve("m"), CREATE_WRITE)) {
      channel.write(ByteBuffer.allocate(4096), 0);
      MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096);
      mapping.put(100, (byte) 7);
      files.note("stored");
      channel.force(false);
    }
    List<FileOp> log = files.log();
    assertThat(log).anySatisfy(op -> assertThat(op).isInstanceOfSatisfying(FileOp.Write.class,
        w -> assertThat(w.position()).isEqualTo(100)));
    CrashState last = CrashStates.generate(log, 1).get(CrashStates.generate(log, 1).size() - 1);
    Path out = Files.createTempDirectory(temp, "state");
    last.replay(log, out);
    assertThat(Files.readAllBytes(out.resolve("m"))[100]).isEqualTo((byte) 7);
  }

  private List<String> replayAll(List<FileOp> log, String name) throws IOException {
    List<String> contents = new ArrayList<>();
    for (CrashState state : CrashStates.generate(log, 1)) {
      contents.add(replay(log, state, name));
    }
    return contents;
  }

  private String replay(List<FileOp> log, CrashState state, String name) throws IOException {
    Path out = Files.createTempDirectory(temp, "state");
    state.replay(log, out);
    Path file = out.resolve(name);
    return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
