package io.qubiq.app.cli;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Parses {@code qubiq <command> [options]}. Options take their value as the next argument or
 * after {@code =} ({@code --http-port 8081}, {@code --http-port=8081}). Anything unexpected is a
 * {@link UsageException} naming the argument; nothing is guessed.
 */
public final class CommandLineParser {

    public static final Path DEFAULT_DATA_DIR = Path.of("data");

    public static final String USAGE = """
            Usage: qubiq <command> [options]

            Commands:
              run --config FILE     start the gateway with FILE
              demo                  start the gateway with its built-in demo configuration
              check-config FILE     validate FILE (exit 0, or 2 listing every problem); recommend a heap size.
                                    --data-dir DIR names the data directory whose secrets FILE refers to
              reset-admin           with the gateway stopped: give it a working administrator again (a fresh
                                    user store when the users file is damaged; a damaged API-token file is
                                    emptied). Password from QUBIQ_ADMIN_PASSWORD, else generated and printed once
              train-class-archive   used by the launcher (docs/operations.md, "Start-up time"): start a
                                    built-in loopback-only gateway until it is ready, then stop. Needs
                                    --data-dir DIR, an empty directory it may fill
              version               print the version
              help                  print this text

            Options for run and demo:
              --data-dir DIR        where all state lives (default: ./data)
              --http-port N         listen on port N instead of the configured http.port (0 = any free port)

            Options for reset-admin:
              --data-dir DIR        the gateway's data directory (default: ./data)
              --config FILE         take the auth section (admin_username, password rules) from FILE
              --user NAME           the administrator's name (default: auth.admin_username, else admin)

            Exit codes: 0 stopped cleanly, 1 start-up failed, 2 invalid configuration or command line,
                        3 shutdown exceeded the grace period.
            """;

    public Command parse(List<String> args) throws UsageException {
        Deque<String> rest = new ArrayDeque<>(args);
        if (rest.isEmpty()) {
            return new Command.Help(Optional.empty());
        }
        String name = rest.removeFirst();
        return switch (name) {
            case "run" -> parseRun(rest);
            case "demo" -> new Command.Demo(parseRunOptions(rest, false).options());
            case "check-config" -> parseCheckConfig(rest);
            case "reset-admin" -> parseResetAdmin(rest);
            case "train-class-archive" -> parseTraining(rest);
            case "version", "--version", "-V" -> noMoreArguments(new Command.Version(), rest, name);
            case "help", "--help", "-h" -> new Command.Help(Optional.ofNullable(rest.pollFirst()));
            default -> throw new UsageException("unknown command '" + name
                    + "' (expected run, demo, check-config, reset-admin, version or help)");
        };
    }

    private Command parseRun(Deque<String> rest) throws UsageException {
        Parsed parsed = parseRunOptions(rest, true);
        if (parsed.configFile().isEmpty()) {
            throw new UsageException("run needs --config FILE (or use 'qubiq demo' for the built-in demo)");
        }
        return new Command.Run(parsed.configFile().get(), parsed.options());
    }

    private Command parseCheckConfig(Deque<String> rest) throws UsageException {
        String file = rest.pollFirst();
        if (file == null || file.startsWith("--")) {
            throw new UsageException("check-config needs the configuration FILE to check");
        }
        Path dataDir = DEFAULT_DATA_DIR;
        while (!rest.isEmpty()) {
            String arg = rest.removeFirst();
            Option given = Option.of(arg);
            String option = given.name();
            String inlineValue = given.inlineValue();
            if (!option.equals("--data-dir")) {
                throw new UsageException("unexpected argument '" + arg + "' (check-config FILE [--data-dir DIR])");
            }
            dataDir = Path.of(value(option, inlineValue, rest));
        }
        return new Command.CheckConfig(Path.of(file), dataDir);
    }

    private Command parseResetAdmin(Deque<String> rest) throws UsageException {
        Path dataDir = DEFAULT_DATA_DIR;
        Optional<Path> config = Optional.empty();
        Optional<String> user = Optional.empty();
        while (!rest.isEmpty()) {
            String arg = rest.removeFirst();
            Option given = Option.of(arg);
            String option = given.name();
            String inlineValue = given.inlineValue();
            switch (option) {
                case "--data-dir" -> dataDir = Path.of(value(option, inlineValue, rest));
                case "--config" -> config = Optional.of(Path.of(value(option, inlineValue, rest)));
                case "--user" -> user = Optional.of(value(option, inlineValue, rest));
                default -> throw new UsageException("unexpected argument '" + arg
                        + "' (options: --data-dir DIR, --config FILE, --user NAME)");
            }
        }
        return new Command.ResetAdmin(dataDir, config, user);
    }

    private Command parseTraining(Deque<String> rest) throws UsageException {
        Path dataDir = null;
        while (!rest.isEmpty()) {
            String arg = rest.removeFirst();
            Option given = Option.of(arg);
            String option = given.name();
            String inlineValue = given.inlineValue();
            if (!option.equals("--data-dir")) {
                throw new UsageException("unexpected argument '" + arg + "' (train-class-archive --data-dir DIR)");
            }
            dataDir = Path.of(value(option, inlineValue, rest));
        }
        if (dataDir == null) {
            throw new UsageException("train-class-archive needs --data-dir DIR (an empty directory it may fill)");
        }
        return new Command.TrainClassArchive(dataDir);
    }

    private record Parsed(Optional<Path> configFile, Command.RunOptions options) {
    }

    private Parsed parseRunOptions(Deque<String> rest, boolean configAllowed) throws UsageException {
        Path config = null;
        Path dataDir = DEFAULT_DATA_DIR;
        OptionalInt port = OptionalInt.empty();
        while (!rest.isEmpty()) {
            String arg = rest.removeFirst();
            Option given = Option.of(arg);
            String option = given.name();
            String inlineValue = given.inlineValue();
            switch (option) {
                case "--config" -> {
                    if (!configAllowed) {
                        throw new UsageException("demo uses its built-in configuration; use 'qubiq run --config FILE'"
                                + " to start with your own");
                    }
                    config = Path.of(value(option, inlineValue, rest));
                }
                case "--data-dir" -> dataDir = Path.of(value(option, inlineValue, rest));
                case "--http-port" -> port = OptionalInt.of(port(value(option, inlineValue, rest)));
                default -> throw new UsageException("unexpected argument '" + arg
                        + "' (options: " + (configAllowed ? "--config FILE, " : "") + "--data-dir DIR, --http-port N)");
            }
        }
        return new Parsed(Optional.ofNullable(config), new Command.RunOptions(dataDir, port));
    }

    /** An argument split at its first {@code =} when it is an option ({@code --http-port=8081}). */
    private record Option(String name, String inlineValue) {
        static Option of(String arg) {
            int eq = arg.indexOf('=');
            return arg.startsWith("--") && eq > 0
                    ? new Option(arg.substring(0, eq), arg.substring(eq + 1))
                    : new Option(arg, null);
        }
    }

    private static String value(String option, String inlineValue, Deque<String> rest) throws UsageException {
        String value = inlineValue != null ? inlineValue : rest.pollFirst();
        if (value == null || value.isEmpty() || (inlineValue == null && value.startsWith("--"))) {
            throw new UsageException(option + " needs a value");
        }
        return value;
    }

    private static int port(String text) throws UsageException {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new UsageException("--http-port expects a port number from 0 to 65535, got '" + text + "'");
    }

    private static Command noMoreArguments(Command command, Deque<String> rest, String name) throws UsageException {
        if (!rest.isEmpty()) {
            throw new UsageException(name + " takes no further arguments, got '" + rest.peekFirst() + "'");
        }
        return command;
    }
}
