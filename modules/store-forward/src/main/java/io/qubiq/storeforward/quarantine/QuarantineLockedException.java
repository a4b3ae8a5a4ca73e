package io.qubiq.storeforward.quarantine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/** The quarantine directory is already open, in this process or another one (named by its PID). */
public final class QuarantineLockedException extends IOException {

    private final OptionalLong holderPid;

    public QuarantineLockedException(Path dir, OptionalLong holderPid) {
        super("quarantine " + dir + " is already open by "
                + (holderPid.isPresent() ? "process " + holderPid.getAsLong() : "another process")
                + (holderPid.isPresent() && holderPid.getAsLong() == ProcessHandle.current().pid() ? " (this one)" : "")
                + "; stop that gateway or give this channel its own quarantine directory");
        this.holderPid = holderPid;
    }

    /** The PID written by the holder, when it could be read. */
    public OptionalLong holderPid() {
        return holderPid;
    }
}
