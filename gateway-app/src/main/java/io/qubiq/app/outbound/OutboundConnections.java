package io.qubiq.app.outbound;

import io.qubiq.app.config.OutboundConfig;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.sink.mongodb.MongoSinkFactory;
import io.qubiq.sink.mqtt.MqttSinkFactory;
import io.qubiq.sink.questdb.QuestDbSinkFactory;
import io.qubiq.sink.sql.SqlSinkFactory;
import io.qubiq.storeforward.ChannelBuilder;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds every configured outbound connection: the sink of its kind, its probe registered with the
 * connection monitor, and its store-and-forward channel in {@code <data>/connections/<id>}
 * ({@code buffer/} and {@code quarantine/}). The overflow policy per kind is the design's:
 * QuestDB and MQTT drop their oldest items at the limit, SQL and MongoDB refuse new ones.
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
            String id = entry.getKey();
            OutboundConfig config = entry.getValue();
            Builder builder = new Builder(id, config, dataDir.resolve("connections").resolve(id), monitor,
                    probeInterval, events, clock);
            connections.put(id, switch (config.kind()) {
                case "questdb" -> {
                    QuestDbSinkFactory factory = new QuestDbSinkFactory(clock);
                    yield builder.connection(factory.create(id, config.questdb().orElseThrow()), factory.codec(),
                            OverflowPolicy.DROP_OLDEST);
                }
                case "sql" -> {
                    SqlSinkFactory factory = new SqlSinkFactory(clock);
                    yield builder.connection(factory.create(id, config.sql().orElseThrow()), factory.codec(),
                            OverflowPolicy.REFUSE);
                }
                case "mongodb" -> {
                    MongoSinkFactory factory = new MongoSinkFactory(clock);
                    yield builder.connection(factory.create(id, config.mongodb().orElseThrow()), factory.codec(),
                            OverflowPolicy.REFUSE);
                }
                default -> {
                    MqttSinkFactory factory = new MqttSinkFactory(clock);
                    yield builder.connection(factory.create(id, config.mqtt().orElseThrow()), factory.codec(),
                            OverflowPolicy.DROP_OLDEST);
                }
            });
        }
        return connections;
    }

    private record Builder(String id, OutboundConfig config, Path dir, ConnectionMonitor monitor,
                           Duration probeInterval, EventPublisher events, Clock clock) {

        <T> OutboundConnection<T> connection(Sink<T> sink, ItemCodec<T> codec, OverflowPolicy destinationDefault) {
            Liveness liveness = monitor.register(id, sink::probe, probeInterval);
            StoreForwardChannel<T> channel = ChannelBuilder.of(id, config.storeAndForward(), sink, codec)
                    .overflowDefault(destinationDefault)
                    .inDirectory(dir)
                    .liveness(liveness)
                    .events(events)
                    .clock(clock)
                    .build();
            return new OutboundConnection<>(id, config.kind(), sink, channel);
        }
    }
}
