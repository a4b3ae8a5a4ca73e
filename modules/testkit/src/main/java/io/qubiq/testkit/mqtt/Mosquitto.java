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
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's mosquitto broker as a child process, a fast second broker for interoperability tests:
 * listens on 127.0.0.1 on a free port, anonymous clients allowed, no persistence. The package does
 * not start it; this fixture does, and stops exactly the process it started.
 *
 * <p>{@link #startOrSkip()} skips the calling test (JUnit assumption) when {@value #BINARY} is not
 * installed; {@code apt-get install -y mosquitto} installs it ({@code .ci/run} does). Not thread-safe.
 */
public final class Mosquitto implements AutoCloseable {

    public static final String BINARY = "/usr/sbin/mosquitto";

    private final int port;
    private final Path home;
    private final Process process;

    private Mosquitto(int port, Path home, Process process) {
        this.port = port;
        this.home = home;
        this.process = process;
    }

    public static boolean installed() {
        return Files.isExecutable(Path.of(BINARY));
    }

    /** Starts mosquitto on a free port, or skips the test when it is not installed. */
    public static Mosquitto startOrSkip() {
        Assumptions.assumeTrue(installed(), BINARY + " is not installed (apt-get install -y mosquitto);"
                + " skipping the test that needs a second broker");
        try {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
            Path home = Files.createTempDirectory("qubiq-mosquitto-");
            Path conf = home.resolve("mosquitto.conf");
            Files.writeString(conf, "listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n",
                    StandardCharsets.UTF_8);
            Process process = new ProcessBuilder(BINARY, "-c", conf.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(home.resolve("mosquitto.log").toFile())
                    .start();
            Mosquitto mosquitto = new Mosquitto(port, home, process);
            mosquitto.awaitListening();
            return mosquitto;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + BINARY, e);
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
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
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
