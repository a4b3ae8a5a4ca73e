package io.qubiq.buffer;

import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Another owner, in this process or another one, holds the buffer directory. Two writers on one
 * directory would corrupt it, so the second opener stops here.
 */
public final class BufferLockedException extends BufferException {
  private static final long serialVersionUID = 1L;
  private final transient Path directory;
  private final long holderPid;

  public BufferLockedException(Path directory, OptionalLong holderPid) {
    super(
        "buffer directory "
            + directory
            + " is locked by process "
            + (holderPid.isPresent() ? "PID " + holderPid.getAsLong() : "with unknown PID")
            + "; stop that process or give this buffer another directory",
        null);
    this.directory = directory;
    this.holderPid = holderPid.orElse(-1);
  }

  public Path directory() {
    return directory;
  }

  /** The holder's PID as written in the lock file, when it could be read. */
  public OptionalLong holderPid() {
    return holderPid < 0 ? OptionalLong.empty() : OptionalLong.of(holderPid);
  }
}
