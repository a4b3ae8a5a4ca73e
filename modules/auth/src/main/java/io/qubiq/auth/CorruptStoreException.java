package io.qubiq.auth;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store file (users or API tokens) cannot be read as written by the gateway: damaged on disk or
 * edited by hand. Never replaced silently, since replacing it would drop every account: the stores'
 * {@code open} throws it, and {@link Auth#open} turns it into a {@link StoreDamage} (the gateway runs with
 * sign-in refused). The message names the file, the line and the operator's choices. A file in a newer
 * format is refused the same way, with a message that says so ({@link #newer}).
 */
public final class CorruptStoreException extends IOException {

    private final Path file;
    private final String problem;
    private final boolean newerFormat;

    CorruptStoreException(Path file, int line, String problem) {
        this(file, line, problem, "The gateway will not overwrite it. Restore it from a backup, or stop the gateway"
                + " and run 'qubiq reset-admin' for a fresh user store with one administrator.", false);
    }

    private CorruptStoreException(Path file, int line, String problem, String advice, boolean newerFormat) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem + ". " + advice);
        this.file = file;
        this.problem = (line > 0 ? "line " + line + ": " : "") + problem;
        this.newerFormat = newerFormat;
    }

    /** The file was written by a newer gateway: not damage, and the way out is that gateway. */
    static CorruptStoreException newer(Path file, String found, String known) {
        return new CorruptStoreException(file, 0, "format " + found + " was written by a newer Qubiq; this gateway"
                + " reads " + known, "Nothing was changed. Run that version again, or restore this file from a backup"
                + " made by this version.", true);
    }

    /** True when the file is intact but in a newer format: nothing is copied aside, nothing changed. */
    public boolean newerFormat() {
        return newerFormat;
    }

    /** What was wrong, with the line where known, without the file name and the advice. */
    public String problem() {
        return problem;
    }

    public Path file() {
        return file;
    }
}
