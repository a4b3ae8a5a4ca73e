package io.qubiq.fileops.powerloss;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One state a power cut could leave: the operations before {@code crashPoint} in the log, each
 * applied whole, except those in {@code kept}, which keep only that many of their bytes (0: the
 * operation did not happen; for a write, more than 0: it was torn to a prefix).
 *
 * @param crashPoint how many operations of the log had been issued when the power went
 * @param kept for the operations that did not reach the disk whole, the bytes that did
 * @param description what this state models, for a failure message
 */
public record CrashState(int crashPoint, Map<Integer, Integer> kept, String description) {

  public CrashState {
    kept = Map.copyOf(kept);
  }

  /** The workload's notes logged before the crash point, in order. */
  public List<Object> notesBefore(List<FileOp> log) {
    List<Object> notes = new ArrayList<>();
    for (int i = 0; i < crashPoint; i++) {
      if (log.get(i) instanceof FileOp.Note note) {
        notes.add(note.event());
      }
    }
    return notes;
  }

  /** Writes this state into {@code dir} (which should be empty): its directories and files. */
  public void replay(List<FileOp> log, Path dir) throws IOException {
    Map<Integer, FileImage> files = new HashMap<>();
    Map<String, Integer> names = new HashMap<>();
    TreeSet<String> directories = new TreeSet<>();
    for (int i = 0; i < crashPoint; i++) {
      Integer keep = kept.get(i);
      if (keep != null && keep == 0) {
        continue;
      }
      FileOp op = log.get(i);
      if (op instanceof FileOp.Create c) {
        files.put(c.file(), new FileImage());
        names.put(c.path(), c.file());
      } else if (op instanceof FileOp.Write w) {
        files.get(w.file()).write(w.position(), w.bytes(),
            keep == null ? w.bytes().length : Math.min(keep, w.bytes().length));
      } else if (op instanceof FileOp.Truncate t) {
        files.get(t.file()).truncate(t.size());
      } else if (op instanceof FileOp.Move m) {
        names.values().removeIf(id -> id == m.file());
        names.put(m.to(), m.file());
      } else if (op instanceof FileOp.Delete d) {
        names.values().removeIf(id -> id == d.file());
      } else if (op instanceof FileOp.MakeDirectory m) {
        directories.add(m.path());
      }
    }
    for (String directory : directories) {
      Files.createDirectories(dir.resolve(directory));
    }
    for (Map.Entry<String, Integer> name : names.entrySet()) {
      Path file = dir.resolve(name.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, files.get(name.getValue()).bytes());
    }
  }
}
