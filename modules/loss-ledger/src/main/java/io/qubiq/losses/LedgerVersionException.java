package io.qubiq.losses;

import io.qubiq.fileops.NewerFormatException;
import java.nio.file.Path;

/**
 * A day file was written by a newer gateway, in a format this one does not know. Nothing was changed;
 * the way out is to run the newer version again, or to move the ledger directory aside.
 */
public final class LedgerVersionException extends NewerFormatException {
    private static final long serialVersionUID = 1L;

    public LedgerVersionException(Path file, int version, int known) {
        super(file, "loss ledger", version, known, file.getParent());
    }
}
