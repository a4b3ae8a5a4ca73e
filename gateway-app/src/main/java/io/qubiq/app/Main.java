package io.qubiq.app;

import io.qubiq.app.cli.Command;
import io.qubiq.app.cli.CommandLineParser;
import io.qubiq.app.cli.UsageException;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.config.HeapRecommendation;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.runtime.BuildInfo;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigProblem;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code qubiq <command>}: parses the command line, validates configuration, and hands a valid
 * configuration to {@link GatewayRunner}. Nothing on disk is touched before the configuration is
 * known to be valid. Exit codes are listed in {@link ExitCode}.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != Integer.MIN_VALUE) {
            System.exit(code);
        }
    }

    /** Runs one command; returns its exit code. A started gateway returns only after it stopped. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, System.getenv(), out, err);
    }

    /** As {@link #run(String[], PrintStream, PrintStream)} with the environment given (tests). */
    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        Command command;
        try {
            command = new CommandLineParser().parse(Arrays.asList(args));
        } catch (UsageException e) {
            err.println("qubiq: " + e.getMessage());
            err.println("Run 'qubiq help' for usage.");
            return ExitCode.INVALID;
        }
        if (command instanceof Command.Help) {
            out.print(CommandLineParser.USAGE);
            return ExitCode.OK;
        }
        if (command instanceof Command.Version) {
            out.println("qubiq " + BuildInfo.version());
            return ExitCode.OK;
        }
        if (command instanceof Command.CheckConfig check) {
            return checkConfig(check, out, err);
        }
        if (command instanceof Command.ResetAdmin reset) {
            return AdminResetCommand.run(reset, env, out, err);
        }
        if (command instanceof Command.TrainClassArchive training) {
            return ClassArchiveTraining.run(training, env, err);
        }
        if (command instanceof Command.Run run) {
            return start(run.configFile().toString(), () -> ConfigSource.loadFile(run.configFile(), env, run.options().dataDir()), run.options(),
                    err);
        }
        Command.Demo demo = (Command.Demo) command;
        return start(ConfigSource.DEMO_NAME, () -> ConfigSource.loadDemo(env), demo.options(), err);
    }

    private static int checkConfig(Command.CheckConfig check, PrintStream out, PrintStream err) {
        try {
            GatewayConfig config = ConfigSource.fromFile(check.configFile(), check.dataDir());
            out.println(check.configFile() + ": valid");
            out.print(HeapRecommendation.of(config).describe());
            return ExitCode.OK;
        } catch (ConfigException e) {
            printProblems(check.configFile().toString(), e, err);
            return ExitCode.INVALID;
        }
    }

    interface ConfigLoad {
        LoadedConfig load() throws ConfigException;
    }

    private static int start(String source, ConfigLoad load, Command.RunOptions options, PrintStream err) {
        return start(source, load, options, GatewayRunner.WhenReady.NOTHING, err);
    }

    static int start(String source, ConfigLoad load, Command.RunOptions options, GatewayRunner.WhenReady whenReady,
            PrintStream err) {
        LoadedConfig config;
        try {
            config = load.load();
        } catch (ConfigException e) {
            printProblems(source, e, err);
            err.println("qubiq: not started; nothing was changed.");
            return ExitCode.INVALID;
        }
        return new GatewayRunner(config, source, options, whenReady).run();
    }

    private static void printProblems(String source, ConfigException e, PrintStream err) {
        int count = e.problems().size();
        err.println(source + ": " + count + (count == 1 ? " problem" : " problems") + ":");
        for (ConfigProblem problem : e.problems()) {
            err.println("  " + problem);
        }
    }
}
