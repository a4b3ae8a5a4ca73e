package io.qubiq.testkit.mqtt;

import com.hivemq.embedded.EmbeddedHiveMQ;
import com.hivemq.embedded.EmbeddedHiveMQBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real MQTT broker for tests: embedded HiveMQ CE (MQTT 3.1.1 and 5) listening on 127.0.0.1 on a
 * free port chosen once, with its configuration, data and extensions folders in a temporary
 * directory. {@link #stop()} and {@link #start()} bring it down and back on the same port and
 * folders (a new embedded instance each time), so a client's reconnect can be tested. Sessions, subscriptions and queued messages live
 * in the file persistence of the data folder: a persistent session survives a restart, a clean one
 * does not.
 *
 * <p>The broker logs through SLF4J ({@code withoutLoggingBootstrap()}); set {@code com.hivemq} to
 * WARN in the test's Logback configuration to keep the output short. Every client is allowed
 * (no authentication). {@link #close()} stops it for good and deletes the directory.
 *
 * <p>Options for brokers that must misbehave on purpose, set before the first {@link #start()}:
 * {@link #withMaxPacketBytes(int)} (the broker's maximum packet size, announced to MQTT 5 clients in
 * CONNACK; an MQTT 3.1.1 client that exceeds it is disconnected) and {@link
 * #withPublishPolicy(Duration)} (refuse publishes to {@code forbidden/#} with a reason code, hold
 * back those to {@code delayed/#}; see {@link PublishPolicy}).
 *
 * <p>start/stop/close and the options are synchronized; {@link #port()} and {@link #host()} may be
 * read from any thread.
 */
public final class TestMqttBroker implements AutoCloseable {

    private static final long TIMEOUT_S = 60;

    /** The password of the TLS listener's generated key store. */
    public static final String KEY_STORE_PASSWORD = "qubiq-test";

    private final int port;
    private final int tlsPort;
    private final Path home;
    private EmbeddedHiveMQ broker;
    private boolean running;
    private OptionalInt maxPacketBytes = OptionalInt.empty();
    private OptionalInt maxQueuedMessages = OptionalInt.empty();
    private Optional<Duration> publishPolicyDelay = Optional.empty();
    private final InboundLog inbound = new InboundLog();

    private TestMqttBroker(int port, int tlsPort, Path home) {
        this.port = port;
        this.tlsPort = tlsPort;
        this.home = home;
    }

    /** A broker on a free port with a fresh temporary home, not yet started. */
    public static TestMqttBroker onFreePort() {
        return create(false);
    }

    /**
     * As {@link #onFreePort()}, with a second, TLS listener on {@link #tlsPort()} that presents a
     * self-signed certificate for {@code localhost}/{@code 127.0.0.1}, generated with the JDK's keytool
     * into the broker's home ({@link #keyStore()}, password {@value #KEY_STORE_PASSWORD}).
     */
    public static TestMqttBroker onFreePortWithTls() {
        return create(true);
    }

    private static TestMqttBroker create(boolean tls) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket tlsSocket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            tlsSocket.setReuseAddress(true);
            Path home = Files.createTempDirectory("qubiq-hivemq-");
            TestMqttBroker broker = new TestMqttBroker(socket.getLocalPort(), tls ? tlsSocket.getLocalPort() : -1, home);
            broker.writeConfiguration();
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the test MQTT broker", e);
        }
    }

    /** The TLS listener's port; only for a broker made with {@link #onFreePortWithTls()}. */
    public int tlsPort() {
        if (tlsPort < 0) {
            throw new IllegalStateException("this broker has no TLS listener; create it with onFreePortWithTls()");
        }
        return tlsPort;
    }

    /** The PKCS#12 key store holding the TLS listener's self-signed certificate. */
    public Path keyStore() {
        return home.resolve("conf/broker.p12");
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return port;
    }

    /** {@code tcp://127.0.0.1:<port>}, for messages. */
    public String url() {
        return "tcp://" + host() + ":" + port;
    }

    /**
     * Sets the broker's maximum packet size ({@code <mqtt><packets><max-packet-size>}), which HiveMQ
     * announces to MQTT 5 clients in CONNACK. Only before the first start.
     */
    public synchronized TestMqttBroker withMaxPacketBytes(int bytes) {
        requireNotStarted();
        maxPacketBytes = OptionalInt.of(bytes);
        try {
            writeConfiguration();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite the test MQTT broker's configuration", e);
        }
        return this;
    }

    /**
     * Sets how many messages the broker queues per client session while the client is away or behind
     * ({@code <mqtt><queued-messages><max-queue-size>}; HiveMQ's default is 1000, the excess discarded).
     * Only before the first start.
     */
    public synchronized TestMqttBroker withMaxQueuedMessages(int count) {
        requireNotStarted();
        maxQueuedMessages = OptionalInt.of(count);
        try {
            writeConfiguration();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite the test MQTT broker's configuration", e);
        }
        return this;
    }

    /** The maximum packet size set with {@link #withMaxPacketBytes(int)}, if any. */
    public synchronized OptionalInt maxPacketBytes() {
        return maxPacketBytes;
    }

    /**
     * Installs {@link PublishPolicy}: publishes to {@code forbidden/#} are refused with reason code
     * NOT_AUTHORIZED, publishes to {@code delayed/#} are acknowledged and delivered {@code delay}
     * late. Kept across stop and start. Only before the first start.
     */
    public synchronized TestMqttBroker withPublishPolicy(Duration delay) {
        requireNotStarted();
        publishPolicyDelay = Optional.of(delay);
        return this;
    }

    private void requireNotStarted() {
        if (running || broker != null) {
            throw new IllegalStateException("set the test broker's options before starting it");
        }
    }

    /**
     * What clients published on {@code witnessed/#} topics, as the broker received it; recorded only
     * with {@link #withPublishPolicy(Duration)}.
     */
    public InboundLog inbound() {
        return inbound;
    }

    public synchronized boolean isRunning() {
        return running;
    }

    /** Starts the broker (idempotent) and waits until it accepts connections. */
    public synchronized TestMqttBroker start() {
        if (running) {
            return this;
        }
        if (broker == null) {
            EmbeddedHiveMQBuilder builder = EmbeddedHiveMQ.builder()
                    .withConfigurationFolder(home.resolve("conf"))
                    .withDataFolder(home.resolve("data"))
                    .withExtensionsFolder(home.resolve("extensions"))
                    .withoutLoggingBootstrap();
            publishPolicyDelay.ifPresent(delay -> builder.withEmbeddedExtension(PublishPolicy.extension(delay, inbound)));
            broker = builder.build();
        }
        try {
            broker.start().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the embedded HiveMQ broker did not start on port " + port, e);
        }
        running = true;
        return this;
    }

    /** Stops the broker, closing every client connection; {@link #start()} brings it back on the same port. */
    public synchronized void stop() {
        if (!running) {
            return;
        }
        // A stopped EmbeddedHiveMQ can in principle be started again, but 2025.5 then fails to register its
        // metrics a second time ("A metric named ... already exists"). So each start builds a new instance
        // on the same port and folders, which keeps the file persistence (sessions, queued messages).
        try {
            broker.stop().get(TIMEOUT_S, TimeUnit.SECONDS);
            broker.close();
        } catch (Exception e) {
            throw new IllegalStateException("the embedded HiveMQ broker did not stop", e);
        } finally {
            broker = null;
            running = false;
        }
    }

    /** Stops the broker for good and deletes its temporary home. */
    @Override
    public synchronized void close() {
        try {
            if (broker != null) {
                broker.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException("the embedded HiveMQ broker did not close", e);
        } finally {
            broker = null;
            running = false;
            deleteHome();
        }
    }

    private void writeConfiguration() throws IOException {
        Files.createDirectories(home.resolve("conf"));
        Files.createDirectories(home.resolve("data"));
        Files.createDirectories(home.resolve("extensions"));
        String tlsListener = "";
        if (tlsPort > 0 && !Files.exists(keyStore())) {
            generateKeyStore();
        }
        if (tlsPort > 0) {
            tlsListener = """
                        <tls-tcp-listener>
                            <port>%d</port>
                            <bind-address>127.0.0.1</bind-address>
                            <tls>
                                <keystore>
                                    <path>%s</path>
                                    <password>%s</password>
                                    <private-key-password>%s</private-key-password>
                                </keystore>
                            </tls>
                        </tls-tcp-listener>
                    """.formatted(tlsPort, keyStore(), KEY_STORE_PASSWORD, KEY_STORE_PASSWORD);
        }
        String config = """
                <?xml version="1.0"?>
                <hivemq>
                    <listeners>
                        <tcp-listener>
                            <port>%d</port>
                            <bind-address>127.0.0.1</bind-address>
                        </tcp-listener>
                %s    </listeners>
                %s    <anonymous-usage-statistics>
                        <enabled>false</enabled>
                    </anonymous-usage-statistics>
                </hivemq>
                """.formatted(port, tlsListener, mqttSection());
        Files.writeString(home.resolve("conf/config.xml"), config, StandardCharsets.UTF_8);
    }

    private String mqttSection() {
        if (maxPacketBytes.isEmpty() && maxQueuedMessages.isEmpty()) {
            return "";
        }
        StringBuilder mqtt = new StringBuilder("    <mqtt>\n");
        maxPacketBytes.ifPresent(bytes -> mqtt.append("""
                        <packets>
                            <max-packet-size>%d</max-packet-size>
                        </packets>
                """.formatted(bytes)));
        maxQueuedMessages.ifPresent(count -> mqtt.append("""
                        <queued-messages>
                            <max-queue-size>%d</max-queue-size>
                        </queued-messages>
                """.formatted(count)));
        return mqtt.append("    </mqtt>\n").toString();
    }

    private void generateKeyStore() throws IOException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "broker", "-keyalg", "RSA",
                "-keysize", "2048", "-validity", "30", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", keyStore().toString(), "-storepass", KEY_STORE_PASSWORD,
                "-keypass", KEY_STORE_PASSWORD)
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("keytool.log").toFile())
                .start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("keytool could not create " + keyStore() + "; see " + home.resolve("keytool.log"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating the key store", e);
        }
    }

    private void deleteHome() {
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
