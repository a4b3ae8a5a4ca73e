package io.qubiq.buffer;

import java.io.IOException;
import java.util.Locale;

/**
 * Tells a full disk apart from other storage failures: one place for every store (the buffer, the
 * quarantine, the audit store, the pipeline state, the historian), so that each can say "the disk
 * is full" instead of a bare I/O error and report what it could not keep as {@code disk_full}.
 *
 * <p>The JDK has no error code for it: a full disk reaches Java as an {@link IOException} whose
 * message is the operating system's text for ENOSPC (Linux and macOS: "No space left on device";
 * Windows: "There is not enough space on the disk") or, for a quota, EDQUOT ("Disk quota exceeded").
 * A page of a memory mapping that the file system cannot back faults instead ({@link InternalError});
 * the buffer turns that into an IOException with the same words ({@link #NO_SPACE}).
 */
public final class DiskFull {

  /** The words the buffer uses itself when a mapping could not be backed (Linux's ENOSPC text). */
  public static final String NO_SPACE = "No space left on device";

  private static final String[] MARKERS = {
    "no space left on device", "not enough space on the disk", "disk quota exceeded"
  };

  private DiskFull() {}

  /** True when {@code failure} or one of its causes says the disk (or the user's quota) is full. */
  public static boolean causedBy(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage();
      if (message != null) {
        String lower = message.toLowerCase(Locale.ROOT);
        for (String marker : MARKERS) {
          if (lower.contains(marker)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * {@code what} followed by what went wrong, in the operator's words: "…: the disk is full
   * (java.io.IOException: No space left on device)" for a full disk, "…: java.io.IOException: …"
   * otherwise.
   */
  public static String describe(String what, Throwable failure) {
    return causedBy(failure)
        ? what + ": the disk is full (" + failure + "); free space on it"
        : what + ": " + failure;
  }
}
