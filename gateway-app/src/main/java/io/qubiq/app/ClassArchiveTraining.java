package io.qubiq.app;

import io.qubiq.app.cli.Command;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.runtime.SignalShutdown;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigProblem;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code qubiq train-class-archive --data-dir DIR}: the run the launcher makes once per application jar and
 * Java installation with {@code -XX:ArchiveClassesAtExit}, so that the next starts map the classes a gateway
 * loads from a class-data archive instead of loading them one by one (docs/operations.md, "Start-up time").
 *
 * <p>Contract: it starts the built-in training configuration ({@value #RESOURCE}): the simulated demo plant
 * on free loopback ports read over OPC UA and MQTT, the console on a free loopback port, and the historian
 * writing to a loopback port that was free a moment before (nothing is meant to answer there, so its
 * buffer and retry path are loaded too). Once the gateway is ready it asks the console for a few pages,
 * then stops in order and exits 0, which is when the JVM writes the archive. Nothing outside the process
 * is read or written except {@code DIR}, which must be empty or absent: the training refuses a directory
 * holding anything, so a real data directory cannot be written by mistake. The launcher deletes
 * {@code DIR} afterwards.
 */
final class ClassArchiveTraining {

    private static final Logger log = LoggerFactory.getLogger(ClassArchiveTraining.class);

    static final String RESOURCE = "/qubiq/class-archive-training.yaml";
    static final String NAME = "built-in class-archive training";
    /** The variable the training configuration reads the historian's (unanswered) QuestDB port from. */
    static final String PORT_VARIABLE = "QUBIQ_TRAINING_QUESTDB_PORT";
    private static final List<String> CONSOLE_PATHS = List.of("/health", "/", "/metrics");

    private ClassArchiveTraining() {
    }

    static int run(Command.TrainClassArchive command, Map<String, String> env, PrintStream err) {
        Path dir = command.dataDir();
        try {
            if (holdsAnything(dir)) {
                err.println("qubiq: train-class-archive needs an empty or absent --data-dir; " + dir
                        + " holds files. Nothing was changed.");
                return ExitCode.INVALID;
            }
        } catch (IOException e) {
            err.println("qubiq: cannot read " + dir + ": " + e.getMessage());
            return ExitCode.INVALID;
        }
        return Main.start(NAME, () -> config(env), new Command.RunOptions(dir, OptionalInt.of(0)),
                ClassArchiveTraining::exercise, err);
    }

    /** The training configuration, its historian pointed at a loopback port nothing listens on. */
    static LoadedConfig config(Map<String, String> env) throws ConfigException {
        Map<String, String> withPort = new HashMap<>(env);
        withPort.put(PORT_VARIABLE, Integer.toString(unusedLoopbackPort()));
        return LoadedConfig.bind(NAME, "class-archive-training", text(), withPort);
    }

    private static String text() throws ConfigException {
        try (InputStream in = ClassArchiveTraining.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new ConfigException(List.of(new ConfigProblem(NAME, 0, 0, "",
                        "the training configuration is missing from the application jar; rebuild with ./qubiq build")));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(List.of(new ConfigProblem(NAME, 0, 0, "",
                    "cannot read the training configuration: " + e.getMessage())));
        }
    }

    private static int unusedLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port for the training's historian", e);
        }
    }

    private static boolean holdsAnything(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isPresent();
        }
    }

    /** Asks the console for a few pages (loading its request path), then ends the run. */
    private static void exercise(Gateway gateway, SignalShutdown shutdown) {
        for (String path : CONSOLE_PATHS) {
            try {
                HttpURLConnection connection = (HttpURLConnection) new URL("http", "127.0.0.1",
                        gateway.console().port(), path).openConnection();
                connection.setConnectTimeout(5_000);
                connection.setReadTimeout(5_000);
                int status = connection.getResponseCode();
                InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream();
                if (body != null) {
                    try (body) {
                        body.readAllBytes();
                    }
                }
                connection.disconnect();
            } catch (IOException e) {
                log.warn("Training request {} failed: {}", path, e.getMessage());
            }
        }
        shutdown.request("the end of the class-archive training");
    }
}
