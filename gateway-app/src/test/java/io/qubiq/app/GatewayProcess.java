package io.qubiq.app;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real gateway process started from the application jar, as an operator would start it. Its
 * stdout and stderr go to a file, read back by the test. Stopped by PID (SIGTERM via
 * {@link Process#destroy()}, SIGKILL as a last resort in {@link #close()}).
 */
final class GatewayProcess implements AutoCloseable {

    static final Path JAR = Path.of(System.getProperty("qubiq.jar", "target/qubiq-gateway.jar"));

    private final Process process;
    private final Path output;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private GatewayProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static GatewayProcess start(Path workDir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-Xmx256m", "-jar", JAR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        Path output = workDir.resolve("gateway-" + System.nanoTime() + ".out");
        Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        return new GatewayProcess(process, output);
    }

    /** Runs a command that ends by itself (check-config, version) and returns its exit code. */
    static Finished runToEnd(Path workDir, String... args) throws Exception {
        try (GatewayProcess gateway = start(workDir, args)) {
            if (!gateway.process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("qubiq " + String.join(" ", args) + " did not finish within 60 s");
            }
            return new Finished(gateway.process.exitValue(), gateway.output());
        }
    }

    record Finished(int exitCode, String output) {
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String output() throws IOException {
        return Files.readString(output);
    }

    HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends SIGTERM, as systemd or {@code kill PID} would. */
    void terminate() {
        process.destroy();
    }

    /** Waits for the exit and returns the code, or fails the test when it takes longer than {@code limit}. */
    int awaitExit(Duration limit) throws InterruptedException, IOException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the gateway did not exit within " + limit + "; output:\n" + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
