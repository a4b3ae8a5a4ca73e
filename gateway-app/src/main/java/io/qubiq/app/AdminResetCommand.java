package io.qubiq.app;

import io.qubiq.app.cli.Command;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.auth.AccountException;
import io.qubiq.auth.AdminReset;
import io.qubiq.auth.AuthConfig;
import io.qubiq.auth.Secrets;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.app.runtime.DataDirectoryException;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigProblem;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * {@code qubiq reset-admin}: the way back in after a damaged user store or a lost administrator password.
 * Takes the data directory's lock first, so it refuses while a gateway runs on it (the running gateway would
 * not see the change). The password comes from {@value #PASSWORD_VARIABLE} (as {@code auth.admin_password}
 * normally does), else from the configuration's {@code auth.admin_password}, else it is generated and printed
 * once on standard output, never stored in clear. What it changes is {@link AdminReset}'s.
 */
final class AdminResetCommand {

    static final String PASSWORD_VARIABLE = "QUBIQ_ADMIN_PASSWORD";

    private AdminResetCommand() {
    }

    static int run(Command.ResetAdmin command, Map<String, String> env, PrintStream out, PrintStream err) {
        AuthConfig auth;
        try {
            auth = command.configFile().isPresent() ? ConfigSource.fromFile(command.configFile().get(), command.dataDir()).auth()
                    : AuthConfig.defaults();
        } catch (ConfigException e) {
            err.println(command.configFile().get() + ": " + e.problems().size() + " problem(s):");
            for (ConfigProblem problem : e.problems()) {
                err.println("  " + problem);
            }
            err.println("qubiq: nothing was changed.");
            return ExitCode.INVALID;
        }
        String user = command.user().orElse(auth.adminUsername());
        Optional<String> given = Optional.ofNullable(env.get(PASSWORD_VARIABLE)).filter(p -> !p.isBlank())
                .or(auth::adminPassword);
        String password = given.orElseGet(() -> Secrets.random(18));
        try (DataDirectory data = DataDirectory.open(command.dataDir())) {
            AdminReset.Report report = AdminReset.run(auth, data.root().resolve("auth"), user, password,
                    Clock.systemUTC());
            report.done().forEach(out::println);
            if (given.isEmpty()) {
                out.println("The password of " + user + " is shown this once: " + password);
                out.println("Sign in with it and change it (or set " + PASSWORD_VARIABLE + " to choose it).");
            }
            out.println("Start the gateway again; sign-in works.");
            return ExitCode.OK;
        } catch (DataDirectoryException e) {
            err.println("qubiq: " + e.getMessage() + "; nothing was changed.");
            return ExitCode.START_FAILED;
        } catch (AccountException e) {
            err.println("qubiq: " + e.getMessage() + "; nothing was changed.");
            return ExitCode.INVALID;
        } catch (IOException e) {
            err.println("qubiq: the reset did not complete: " + e.getMessage());
            return ExitCode.START_FAILED;
        }
    }
}
