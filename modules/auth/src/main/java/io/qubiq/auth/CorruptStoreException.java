package io.qubiq.auth;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A store file (users or API tokens) cannot be read as written by the gateway: damaged on disk or
 * edited by hand. The gateway refuses to start rather than replace it, since replacing it would drop
 * every account. The message names the file, the line and the operator's choices.
 */
public final class CorruptStoreException extends IOException {

    private final Path file;

    CorruptStoreException(Path file, int line, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem + ". The gateway will not start with this file"
                + " and will not overwrite it. Restore it from a backup; or move it away to start without it"
                + " (for the users file, the next start then asks for a new first administrator).");
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
