package io.qubiq.storeforward.quarantine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A quarantine entry file is not a complete, intact entry: torn, truncated, bit-flipped, or written
 * in a format this gateway does not read. Names the file, the byte offset where the problem was
 * found and what was wrong.
 *
 * <p>The file store never lets this escape {@link FileQuarantineStore#open}: damaged files found
 * there are moved to {@code corrupt/}. It reaches a caller only from {@link QuarantineStore#get}
 * when an entry that was intact at open is damaged later; the file has then already been moved to
 * {@code corrupt/} and the entry is no longer listed.
 */
public final class QuarantineEntryCorruptException extends IOException {

    private final transient Path file;
    private final long offset;
    private final String problem;

    QuarantineEntryCorruptException(Path file, long offset, String problem) {
        this(file, offset, problem, "move it out of the quarantine directory and inspect it");
    }

    QuarantineEntryCorruptException(Path file, long offset, String problem, String operatorAction) {
        super("quarantine entry " + file + " is damaged at byte " + offset + ": " + problem + "; " + operatorAction);
        this.file = file;
        this.offset = offset;
        this.problem = problem;
    }

    /** The damaged file where it was found. */
    public Path file() {
        return file;
    }

    /** Byte offset in the file where the problem was detected. */
    public long offset() {
        return offset;
    }

    /** What was wrong, without the file name or advice. */
    public String problem() {
        return problem;
    }
}
