package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.sink.Sink;
import io.qubiq.fileops.OwnerOnly;
import io.qubiq.pipeline.OutboundKind;
import io.qubiq.storeforward.ChannelBuilder;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Builds every configured outbound connection from its kind ({@link OutboundKinds}): the kind's sink,
 * the sink's probe registered with the connection monitor, and the store-and-forward channel in
 * {@code <data>/connections/<id>} ({@code buffer/} and {@code quarantine/}) with the kind's codec and
 * default overflow policy; the directory's {@code kind} file names the kind. Nothing here depends on which kinds exist.
 * Nothing is started here; the caller adds the channels to the lifecycle.
 */
public final class OutboundConnections {

    private OutboundConnections() {
    }

    public static Map<String, OutboundConnection<?>> build(Map<String, OutboundConfig> configs, Path dataDir,
                                                           ConnectionMonitor monitor, Duration probeInterval,
                                                           EventPublisher events, Clock clock)
            throws ConfigurationException {
        Map<String, OutboundConnection<?>> connections = new LinkedHashMap<>();
        for (Map.Entry<String, OutboundConfig> entry : configs.entrySet()) {
            connections.put(entry.getKey(), one(entry.getKey(), entry.getValue(), dataDir, monitor, probeInterval,
                    events, clock));
        }
        return connections;
    }

    /** Connection {@code id} built from its section, as at start; nothing started. */
    static OutboundConnection<?> one(String id, OutboundConfig config, Path dataDir, ConnectionMonitor monitor,
                                     Duration probeInterval, EventPublisher events, Clock clock)
            throws ConfigurationException {
        return connection(OutboundKinds.of(config), id, config, dataDir.resolve("connections").resolve(id), monitor,
                probeInterval, events, clock);
    }

    private static <C, T> OutboundConnection<T> connection(OutboundKind<C, ?, T> kind, String id, OutboundConfig config,
                                                           Path dir, ConnectionMonitor monitor, Duration probeInterval,
                                                           EventPublisher events, Clock clock)
            throws ConfigurationException {
        Sink<T> sink = sinkOf(kind, id, config, clock);
        nameKind(dir, kind.name());
        AtomicReference<Sink<T>> current = new AtomicReference<>(sink);
        Liveness liveness = monitor.register(id, () -> current.get().probe(), probeInterval);
        StoreForwardChannel<T> channel = ChannelBuilder.of(id, config.storeAndForward(), sink, kind.codec())
                .overflowDefault(kind.defaultOverflow())
                .inDirectory(dir)
                .liveness(liveness)
                .events(events)
                .clock(clock)
                .build();
        return new OutboundConnection<>(id, kind, current, channel);
    }

    /**
     * Writes the kind's name in the channel's directory ({@code kind}), so that the directory, orphaned
     * later, says which kinds may take its items over. Best effort: without it, an attach is not checked.
     */
    private static void nameKind(Path dir, String kind) {
        Path file = dir.resolve("kind");
        try {
            if (!Files.isRegularFile(file) || !Files.readString(file).trim().equals(kind)) {
                OwnerOnly.createDirectories(dir);
                Files.writeString(OwnerOnly.createFile(file), kind + "\n");
            }
        } catch (IOException e) {
            LoggerFactory.getLogger(OutboundConnections.class).warn("Could not write {}: {}", file, e.toString());
        }
    }

    /** The sink {@code kind} makes of connection {@code id}'s section; nothing is opened yet. */
    static <C, T> Sink<T> sinkOf(OutboundKind<C, ?, T> kind, String id, OutboundConfig config, Clock clock)
            throws ConfigurationException {
        return kind.sink(id, kind.configType().cast(config), clock);
    }
}
