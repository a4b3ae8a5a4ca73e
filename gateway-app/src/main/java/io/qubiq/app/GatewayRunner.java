package io.qubiq.app;

import io.qubiq.app.cli.Command;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.lifecycle.StartupException;
import io.qubiq.app.lifecycle.StopReport;
import io.qubiq.app.runtime.BuildInfo;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.app.runtime.DataDirectoryException;
import io.qubiq.app.runtime.LogSetup;
import io.qubiq.app.runtime.SignalReload;
import io.qubiq.app.runtime.SignalShutdown;
import io.qubiq.config.ConfigException;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one gateway process from a valid configuration: lock the data directory, attach the log
 * file, start the components, wait until the gateway is ready, which means collecting (every device
 * connection connected and subscribed, or failed its first attempt, within
 * {@code lifecycle.readiness_grace_ms}) and log it, wait for SIGTERM or SIGINT, stop the components
 * within the grace period.
 *
 * <p>Outcome as exit code: 0 after a clean stop, 1 when start-up failed (the data directory, or a
 * component the gateway cannot run without; the components already started are stopped again), 3
 * when the shutdown outran its grace period and the process halted. A component the gateway can run
 * without (a channel, a device connection, the pipelines) that fails to start does not stop it: the
 * gateway runs DEGRADED and says so in the log and on /health. The built-in demo runs from its copy in the
 * data directory ({@code demo.yaml}, written on the first start), so its configuration can be changed.
 *
 * <p>Used by the main thread only.
 */
final class GatewayRunner {

    private static final Logger log = LoggerFactory.getLogger(GatewayRunner.class);

    private LoadedConfig loaded;
    private GatewayConfig config;
    private String source;
    private final Command.RunOptions options;
    private final WhenReady whenReady;

    /** What the runner does once the gateway is ready (or running degraded), before it awaits the stop request. */
    interface WhenReady {
        WhenReady NOTHING = (gateway, shutdown) -> { };

        void run(Gateway gateway, SignalShutdown shutdown);
    }

    GatewayRunner(LoadedConfig loaded, String source, Command.RunOptions options) {
        this(loaded, source, options, WhenReady.NOTHING);
    }

    GatewayRunner(LoadedConfig loaded, String source, Command.RunOptions options, WhenReady whenReady) {
        this.loaded = withOverrides(loaded, options);
        this.config = this.loaded.config();
        this.source = source;
        this.options = options;
        this.whenReady = whenReady;
    }

    private static LoadedConfig withOverrides(LoadedConfig loaded, Command.RunOptions options) {
        if (options.httpPort().isEmpty()) {
            return loaded;
        }
        return loaded.withHttpPort(options.httpPort().getAsInt());
    }

    int run() {
        SignalShutdown shutdown = new SignalShutdown(code -> Runtime.getRuntime().halt(code));
        shutdown.install(ExitCode.SHUTDOWN_TIMEOUT);

        DataDirectory dataDirectory;
        try {
            dataDirectory = DataDirectory.open(options.dataDir());
            LogSetup.apply(config.logging(), dataDirectory.resolve("logs"));
            dataDirectory.permissionWarning().ifPresent(log::warn);
        } catch (DataDirectoryException | IOException e) {
            log.error("Not started: {}", e.getMessage());
            return ExitCode.START_FAILED;
        }
        if (ConfigSource.isPackagedDemo(loaded)) {
            try {
                loaded = withOverrides(ConfigSource.demoInDataDirectory(dataDirectory.root(), loaded.environment()),
                        options);
            } catch (ConfigException e) {
                log.error("Not started: the demo's configuration in the data directory is invalid (fix or delete it"
                        + " to start from the built-in demo again): {}", e.getMessage());
                closeQuietly(dataDirectory);
                return ExitCode.INVALID;
            }
            config = loaded.config();
            source = loaded.source();
        }
        log.info("Starting {} (Qubiq {}) from {}, data directory {}", config.gateway().name(), BuildInfo.version(),
                source, dataDirectory.root());

        long begin = System.nanoTime();
        Gateway gateway;
        try {
            gateway = new Gateway(loaded, dataDirectory, Clock.systemUTC());
        } catch (ConfigurationException e) {
            log.error("Not started: invalid configuration: {}", e.getMessage());
            closeQuietly(dataDirectory);
            return ExitCode.INVALID;
        }
        new SignalReload(() -> gateway.reloadConfiguration("SIGHUP")).install();
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> gateway.lifecycle().stopAll(gateway.shutdownGracePeriod()), "qubiq-shutdown-hook"));
        try {
            gateway.lifecycle().startAll();
        } catch (StartupException e) {
            log.error("Not started: {}", e.getMessage());
            closeQuietly(dataDirectory);
            return ExitCode.START_FAILED;
        }
        long started = (System.nanoTime() - begin) / 1_000_000;
        log.info("Components started in {} ms; waiting for the device connections to collect (at most {} ms)",
                started, config.lifecycle().readinessGraceMs());
        boolean stopping = awaitSettled(gateway, shutdown);
        long took = (System.nanoTime() - begin) / 1_000_000;
        List<DegradedPart> degraded = gateway.status().degradedParts();
        if (stopping) {
            log.info("Shutdown requested before the gateway was ready");
        } else if (degraded.isEmpty()) {
            log.info("{} ready in {} ms (every device connection collecting); console at http://{}:{}/",
                    config.gateway().name(), took,
                    config.http().bindAddress(), gateway.console().port());
        } else {
            log.warn("{} running DEGRADED after {} ms: {} (reasons above and on /health); console at"
                    + " http://{}:{}/", config.gateway().name(), took, degraded.stream()
                            .map(part -> part.component() + " " + part.state()).collect(Collectors.joining(", ")),
                    config.http().bindAddress(), gateway.console().port());
        }
        if (!stopping) {
            whenReady.run(gateway, shutdown);
        }

        try {
            shutdown.awaitRequest();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        StopReport report = gateway.lifecycle().stopAll(gateway.shutdownGracePeriod());
        gateway.closeMetrics();
        if (report.timedOut()) {
            log.error("Shutdown exceeded its grace period of {} ms; still stopping: {}. Halting.",
                    config.lifecycle().shutdownGracePeriodMs(), String.join(", ", report.unfinished()));
            Runtime.getRuntime().halt(ExitCode.SHUTDOWN_TIMEOUT);
        }
        log.info("Stopped after {} ({} ms){}", shutdown.reason(), report.took().toMillis(),
                report.failed().isEmpty() ? "" : "; components that failed while stopping: " + report.failed());
        closeQuietly(dataDirectory);
        return ExitCode.OK;
    }

    /**
     * Waits while the gateway is STARTING (a device connection neither collecting nor failed within
     * its readiness grace, which bounds the wait). Returns true when a shutdown was requested first.
     */
    private static boolean awaitSettled(Gateway gateway, SignalShutdown shutdown) {
        try {
            while (gateway.status().readiness() == Readiness.STARTING) {
                if (shutdown.awaitRequest(Duration.ofMillis(50))) {
                    return true;
                }
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private static void closeQuietly(DataDirectory dataDirectory) {
        try {
            dataDirectory.close();
        } catch (IOException e) {
            log.warn("Could not release the data directory lock: {}", e.getMessage());
        }
    }
}
