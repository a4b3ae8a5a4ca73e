package io.qubiq.app.cli;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/** One parsed invocation of {@code qubiq}. Each variant carries exactly what its command needs. */
public sealed interface Command {

    /** Options shared by the commands that start a gateway. */
    record RunOptions(Path dataDir, OptionalInt httpPort) {
    }

    /** {@code run --config FILE}: start the gateway from a configuration file. */
    record Run(Path configFile, RunOptions options) implements Command {
    }

    /** {@code demo}: start the gateway with the built-in demo configuration. */
    record Demo(RunOptions options) implements Command {
    }

    /** {@code check-config FILE}: validate a configuration file and list every problem. */
    record CheckConfig(Path configFile, Path dataDir) implements Command {
    }

    /**
     * {@code reset-admin [--data-dir DIR] [--config FILE] [--user NAME]}: with the gateway stopped, give the
     * store in {@code DIR/auth} a working administrator again (see {@code AdminReset}); {@code FILE} supplies
     * the {@code auth} section (administrator name, password rules, hashing), else its defaults apply.
     */
    record ResetAdmin(Path dataDir, Optional<Path> configFile, Optional<String> user) implements Command {
    }

    /**
     * {@code train-class-archive --data-dir DIR}: the launcher's training run (see {@code ClassArchiveTraining}):
     * a built-in loopback-only gateway in {@code DIR} started until ready, then stopped.
     */
    record TrainClassArchive(Path dataDir) implements Command {
    }

    /** {@code version}. */
    record Version() implements Command {
    }

    /** {@code help}, {@code --help}, or no arguments; {@code topic} names a command. */
    record Help(Optional<String> topic) implements Command {
    }
}
