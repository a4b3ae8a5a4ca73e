package io.qubiq.app;

/**
 * The process exit codes, documented in docs/operations.md. Scripts and service managers rely on
 * them; never reuse a number for another meaning.
 */
public final class ExitCode {

    /** Ran and stopped cleanly (SIGTERM or SIGINT), or the command succeeded. */
    public static final int OK = 0;
    /** Start-up failed: a component could not start, the port is taken, the data directory is locked. */
    public static final int START_FAILED = 1;
    /** The configuration file or the command line is invalid; nothing was started or changed. */
    public static final int INVALID = 2;
    /** Shutdown did not finish within the grace period; the process was halted. */
    public static final int SHUTDOWN_TIMEOUT = 3;

    private ExitCode() {
    }
}
