package io.qubiq.auth;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store file (users or API tokens) cannot be read as written by the gateway: damaged on disk or
 * edited by hand. Never replaced silently, since replacing it would drop every account: the stores'
 * {@code open} throws it, and {@link Auth#open} turns it into a {@link StoreDamage} (the gateway runs with
 * sign-in refused). The message names the file, the line and the operator's choices.
 */
public final class CorruptStoreException extends IOException {

    private final Path file;
    private final String problem;

    CorruptStoreException(Path file, int line, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem + ". The gateway will not overwrite it. Restore it"
                + " from a backup, or stop the gateway and run 'qubiq reset-admin' for a fresh user store with one"
                + " administrator.");
        this.file = file;
        this.problem = (line > 0 ? "line " + line + ": " : "") + problem;
    }

    /** What was wrong, with the line where known, without the file name and the advice. */
    public String problem() {
        return problem;
    }

    public Path file() {
        return file;
    }
}
