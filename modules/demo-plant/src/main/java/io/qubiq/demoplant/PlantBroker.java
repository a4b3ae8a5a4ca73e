package io.qubiq.demoplant;

import com.hivemq.configuration.service.InternalConfigurations;
import com.hivemq.embedded.EmbeddedHiveMQ;
import io.qubiq.core.error.ConfigurationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plant's MQTT broker: HiveMQ Community Edition embedded in the process, one TCP listener on
 * 127.0.0.1, in-memory persistence (sessions and retained messages end with it), and sign-in required:
 * only clients with the plant's {@link BrokerCredentials} are admitted ({@link BrokerAuthentication}),
 * so another local user cannot publish commands to the plant. Its configuration lives in a temporary
 * directory created at {@link #start} and deleted at {@link #stop}. A new embedded instance is
 * built at every start (HiveMQ CE 2025.5 cannot start a stopped instance again).
 *
 * <p>HiveMQ logs through SLF4J ({@code com.hivemq}); the application turns it down to WARN.
 * Threading: start and stop are called by {@link SimulatedPlant} under its lock.
 */
final class PlantBroker {

    private static final Logger LOG = LoggerFactory.getLogger(PlantBroker.class);
    private static final long TIMEOUT_S = 60;
    /**
     * How long HiveMQ's in-memory persistence keeps taking tasks after its shutdown began (its
     * default is 2000 ms). Nothing of the demo's broker outlives it, so a stop need not wait.
     */
    private static final int PERSISTENCE_SHUTDOWN_GRACE_MS = 100;

    private final int port;
    private final BrokerCredentials credentials;
    private Path home;
    private EmbeddedHiveMQ broker;

    /** A broker on {@code port} (not 0: the plant picks free ports itself) that admits only {@code credentials}. */
    PlantBroker(int port, BrokerCredentials credentials) {
        this.port = port;
        this.credentials = credentials;
    }

    int port() {
        return port;
    }

    /** @throws ConfigurationException (key {@code mqtt_port}) when the port is taken */
    void start() throws ConfigurationException {
        if (!LoopbackPorts.free(port)) {
            throw portTaken(null);
        }
        try {
            home = Files.createTempDirectory("qubiq-demo-broker-");
            writeConfiguration(home);
        } catch (IOException e) {
            deleteHome();
            throw new UncheckedIOException("cannot prepare the demo plant's MQTT broker", e);
        }
        // A process-wide HiveMQ setting, read when the broker starts; this is the only broker in the gateway.
        InternalConfigurations.PERSISTENCE_SHUTDOWN_GRACE_PERIOD_MSEC.set(PERSISTENCE_SHUTDOWN_GRACE_MS);
        EmbeddedHiveMQ created = EmbeddedHiveMQ.builder()
                .withConfigurationFolder(home.resolve("conf"))
                .withDataFolder(home.resolve("data"))
                .withExtensionsFolder(home.resolve("extensions"))
                .withoutLoggingBootstrap()
                .withEmbeddedExtension(BrokerAuthentication.extension(credentials))
                .build();
        try {
            created.start().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            close(created);
            deleteHome();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (!LoopbackPorts.free(port)) {
                throw portTaken(e);
            }
            throw new IllegalStateException("the demo plant's MQTT broker did not start on port " + port, e);
        }
        broker = created;
        LOG.info("Demo plant: MQTT broker listening on tcp://{}:{} (embedded HiveMQ CE, user {} only, in-memory)",
                LoopbackPorts.HOST, port, credentials.username());
    }

    /** Stops the broker (closing every client connection) and waits (bounded) until its port is free. */
    void stop() {
        if (broker == null) {
            return;
        }
        close(broker);
        broker = null;
        deleteHome();
        if (!LoopbackPorts.awaitReleased(port, 5)) {
            LOG.warn("Demo plant: port {} is still in use 5 s after the MQTT broker stopped", port);
        }
        LOG.info("Demo plant: MQTT broker on port {} stopped", port);
    }

    private void close(EmbeddedHiveMQ target) {
        try {
            target.stop().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("Demo plant: the MQTT broker on port {} did not stop cleanly: {}", port, e.toString());
        }
        try {
            target.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("Demo plant: the MQTT broker on port {} did not close cleanly: {}", port, e.toString());
        }
    }

    private void writeConfiguration(Path dir) throws IOException {
        for (String folder : new String[]{"conf", "data", "extensions"}) {
            Files.createDirectories(dir.resolve(folder));
        }
        Files.writeString(dir.resolve("conf/config.xml"), """
                <?xml version="1.0"?>
                <hivemq>
                    <listeners>
                        <tcp-listener>
                            <port>%d</port>
                            <bind-address>%s</bind-address>
                        </tcp-listener>
                    </listeners>
                    <persistence>
                        <mode>in-memory</mode>
                    </persistence>
                    <anonymous-usage-statistics>
                        <enabled>false</enabled>
                    </anonymous-usage-statistics>
                </hivemq>
                """.formatted(port, LoopbackPorts.HOST), StandardCharsets.UTF_8);
    }

    private void deleteHome() {
        if (home == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(home)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.debug("Demo plant: could not delete {}: {}", home, e.toString());
        }
        home = null;
    }

    private ConfigurationException portTaken(Exception cause) {
        return new ConfigurationException("mqtt_port", "port " + port + " on " + LoopbackPorts.HOST + " is in use;"
                + " stop what listens there or set mqtt_port to another port (0 picks a free one)", cause);
    }
}
