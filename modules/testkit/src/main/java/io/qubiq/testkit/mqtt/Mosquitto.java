package io.qubiq.testkit.mqtt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's mosquitto broker as a child process, a fast second broker for interoperability tests:
 * listens on 127.0.0.1 on a free port, anonymous clients allowed, no persistence. The package does
 * not start it; this fixture does, and stops exactly the process it started.
 *
 * <p>{@link #startOrSkip()} skips the calling test (JUnit assumption) when {@value #BINARY} is not
 * installed; {@code apt-get install -y mosquitto} installs it ({@code .ci/run} does). {@link
 * #startOrSkip(Options)} adds broker settings that tests and benchmarks need: a maximum packet size,
 * topics denied by an ACL, the in-flight window, anonymous access. {@link #start(Options)} is for
 * callers outside JUnit (a benchmark): it fails instead of skipping.
 *
 * <p>{@link #stop()} and {@link #start()} bring the same broker down and back on the same port and
 * directory: with {@link Options#withPersistence()} mosquitto writes its sessions, subscriptions and
 * queued messages to disk when it stops and reads them back when it starts, as a production broker
 * restart does. Not thread-safe.
 */
public final class Mosquitto implements AutoCloseable {

    public static final String BINARY = "/usr/sbin/mosquitto";

    private final int port;
    private final Path home;
    private Process process;

    private Mosquitto(int port, Path home) {
        this.port = port;
        this.home = home;
    }

    /**
     * Broker settings beyond the defaults (anonymous clients allowed, no persistence, mosquitto's own
     * limits). Each {@code with...} returns a changed copy.
     *
     * @param maxPacketBytes      {@code max_packet_size}: announced to MQTT 5 clients in CONNACK; a client
     *                            that sends a larger packet is disconnected (MQTT 3.1.1 clients are not told)
     * @param deniedTopics        topic filters written to an ACL file as {@code topic deny ...} (everything
     *                            else {@code readwrite}): mosquitto does not deliver publishes to them
     * @param maxInflightMessages {@code max_inflight_messages} (mosquitto's default is 20; 0 = no limit)
     * @param allowAnonymous      {@code allow_anonymous}; false without a password file refuses every client
     * @param persistence         {@code persistence}: sessions and queued messages survive {@link #stop()} and
     *                            {@link #start()} (written at stop, read at start)
     * @param maxQueuedMessages   {@code max_queued_messages} per client (mosquitto's default is 1000; 0 = no limit)
     * @param logEverything       {@code log_type all}: every packet sent and received, with its DUP flag, QoS and
     *                            packet identifier, in {@link #log()} (a packet capture for protocol questions)
     */
    public record Options(OptionalInt maxPacketBytes, List<String> deniedTopics, OptionalInt maxInflightMessages,
                          boolean allowAnonymous, boolean persistence, OptionalInt maxQueuedMessages,
                          boolean logEverything) {

        public Options {
            deniedTopics = List.copyOf(deniedTopics);
        }

        public static Options defaults() {
            return new Options(OptionalInt.empty(), List.of(), OptionalInt.empty(), true, false, OptionalInt.empty(),
                    false);
        }

        public Options withMaxPacketBytes(int bytes) {
            return new Options(OptionalInt.of(bytes), deniedTopics, maxInflightMessages, allowAnonymous, persistence,
                    maxQueuedMessages, logEverything);
        }

        public Options withDeniedTopic(String filter) {
            List<String> topics = new ArrayList<>(deniedTopics);
            topics.add(filter);
            return new Options(maxPacketBytes, topics, maxInflightMessages, allowAnonymous, persistence,
                    maxQueuedMessages, logEverything);
        }

        public Options withMaxInflightMessages(int count) {
            return new Options(maxPacketBytes, deniedTopics, OptionalInt.of(count), allowAnonymous, persistence,
                    maxQueuedMessages, logEverything);
        }

        public Options withAllowAnonymous(boolean allow) {
            return new Options(maxPacketBytes, deniedTopics, maxInflightMessages, allow, persistence,
                    maxQueuedMessages, logEverything);
        }

        public Options withPersistence() {
            return new Options(maxPacketBytes, deniedTopics, maxInflightMessages, allowAnonymous, true,
                    maxQueuedMessages, logEverything);
        }

        public Options withMaxQueuedMessages(int count) {
            return new Options(maxPacketBytes, deniedTopics, maxInflightMessages, allowAnonymous, persistence,
                    OptionalInt.of(count), logEverything);
        }

        public Options withEverythingLogged() {
            return new Options(maxPacketBytes, deniedTopics, maxInflightMessages, allowAnonymous, persistence,
                    maxQueuedMessages, true);
        }

        String configuration(int port, Path home) throws IOException {
            StringBuilder conf = new StringBuilder("listener " + port + " 127.0.0.1\nallow_anonymous "
                    + allowAnonymous + "\n");
            if (persistence) {
                conf.append("persistence true\npersistence_location ").append(home).append("/\n");
            } else {
                conf.append("persistence false\n");
            }
            if (logEverything) {
                conf.append("log_type all\n");
            }
            maxPacketBytes.ifPresent(bytes -> conf.append("max_packet_size ").append(bytes).append('\n'));
            maxInflightMessages.ifPresent(count -> conf.append("max_inflight_messages ").append(count).append('\n'));
            maxQueuedMessages.ifPresent(count -> conf.append("max_queued_messages ").append(count).append('\n'));
            if (!deniedTopics.isEmpty()) {
                Path acl = home.resolve("acl");
                StringBuilder rules = new StringBuilder("topic readwrite #\n");
                deniedTopics.forEach(topic -> rules.append("topic deny ").append(topic).append('\n'));
                Files.writeString(acl, rules.toString(), StandardCharsets.UTF_8);
                acl.toFile().setReadable(true, false);
                conf.append("acl_file ").append(acl).append('\n');
            }
            return conf.toString();
        }
    }

    public static boolean installed() {
        return Files.isExecutable(Path.of(BINARY));
    }

    /** Starts mosquitto on a free port, or skips the test when it is not installed. */
    public static Mosquitto startOrSkip() {
        return startOrSkip(Options.defaults());
    }

    /** Starts mosquitto on a free port with {@code options}, or skips the test when it is not installed. */
    public static Mosquitto startOrSkip(Options options) {
        Assumptions.assumeTrue(installed(), BINARY + " is not installed (apt-get install -y mosquitto);"
                + " skipping the test that needs a second broker");
        return start(options);
    }

    /**
     * Starts mosquitto on a free port with {@code options}, outside a test (a benchmark).
     *
     * @throws IllegalStateException when {@value #BINARY} is not installed
     * @throws UncheckedIOException  when it does not start
     */
    public static Mosquitto start(Options options) {
        if (!installed()) {
            throw new IllegalStateException(BINARY + " is not installed (apt-get install -y mosquitto)");
        }
        try {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            Path home = Files.createTempDirectory("qubiq-mosquitto-");
            // Started as root, mosquitto drops to its own user before it reads the ACL file.
            home.toFile().setReadable(true, false);
            home.toFile().setExecutable(true, false);
            Path conf = home.resolve("mosquitto.conf");
            Files.writeString(conf, options.configuration(port, home), StandardCharsets.UTF_8);
            Mosquitto mosquitto = new Mosquitto(port, home);
            mosquitto.start();
            return mosquitto;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + BINARY, e);
        }
    }

    /**
     * Starts the broker again after {@link #stop()}, on the same port and directory (idempotent while
     * running), and waits until it listens.
     *
     * @throws UncheckedIOException when it does not start
     */
    public Mosquitto start() {
        if (process != null && process.isAlive()) {
            return this;
        }
        try {
            // Started as root, mosquitto drops to its own user; it must be able to write its persistence there.
            home.toFile().setWritable(true, false);
            process = new ProcessBuilder(BINARY, "-c", home.resolve("mosquitto.conf").toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("mosquitto.log").toFile()))
                    .start();
            awaitListening();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + BINARY, e);
        }
    }

    /**
     * Stops the broker (SIGTERM, as a service stop does: with persistence it saves its sessions and
     * queued messages first) and waits for the process to end; {@link #start()} brings it back.
     */
    public void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** The broker process's id (for a benchmark report, or to look at it with ps). */
    public long pid() {
        return process.pid();
    }

    /** mosquitto's own log (connections, refusals), for a failing test's message. */
    public Path log() {
        return home.resolve("mosquitto.log");
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("mosquitto exited with " + process.exitValue() + "; see "
                        + home.resolve("mosquitto.log"));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host(), port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    process.waitFor(50, TimeUnit.MILLISECONDS); // a bounded pause between probes
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for mosquitto", e);
                }
            }
        }
        close();
        throw new IOException("mosquitto did not listen on port " + port + " within 10 s");
    }

    /** Stops the process this fixture started (by its handle) and deletes its directory. */
    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
