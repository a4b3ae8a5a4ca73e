package io.qubiq.losses;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A day file was written by a newer gateway, in a format this one does not know. Nothing was changed;
 * the way out is to run the newer version again, or to move the ledger directory aside.
 */
public final class LedgerVersionException extends IOException {

    public LedgerVersionException(Path file, int version, int known) {
        super("loss ledger file " + file + " has format version " + version + ", newer than " + known
                + " which this gateway reads: run the newer gateway, or move " + file.getParent()
                + " aside to start an empty ledger");
    }
}
