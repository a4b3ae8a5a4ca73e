package io.qubiq.historian;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.sink.Sink;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbRowCodec;
import io.qubiq.sink.questdb.QuestDbSink;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.sink.questdb.TimestampPrecision;
import io.qubiq.storeforward.ChannelBuilder;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Builds what the historian writes through, the same way for the application and for tests: the
 * idempotent {@link QuestDbSink} (the history tables have dedup keys), wrapped so the tables exist
 * before the first row, in a {@link StoreForwardChannel} on a segmented disk buffer
 * ({@code <dir>/buffer}) and a file quarantine ({@code <dir>/quarantine}), overflow policy
 * drop_oldest unless configured otherwise. The caller starts and stops the channel (before and
 * after the historian).
 */
public final class HistorianChannels {

    private HistorianChannels() {
    }

    /**
     * The historian's sink: an idempotent {@link QuestDbSink} (the history tables have dedup keys)
     * that creates the history tables before its first write. Register its {@code probe} with the
     * connection monitor.
     *
     * @param connection the outbound connection id, such as {@code historian}
     * @throws ConfigurationException when the sink configuration is invalid
     */
    public static Sink<QuestDbRow> sink(String connection, HistorianConfig config, QuestDbSinkConfig sinkConfig,
                                        Clock clock) throws ConfigurationException {
        QuestDbSink sink = new QuestDbSink(connection, sinkConfig.withIdempotent(true), clock,
                TimestampPrecision.MICROS); // the history tables' timestamp columns are microseconds
        return new SchemaFirstSink(sink, HistorySchema.of(config), execClient(config, sinkConfig));
    }

    /**
     * The historian's channel in front of {@code sink} (from {@link #sink}).
     *
     * @param dir      the channel's own directory
     * @param liveness the connection monitor's verdict on QuestDB
     */
    public static StoreForwardChannel<QuestDbRow> channel(String connection, HistorianConfig config,
                                                          Sink<QuestDbRow> sink, Path dir, Liveness liveness,
                                                          EventPublisher events, Clock clock) {
        return ChannelBuilder.of(connection, config.storeAndForward(), sink, new QuestDbRowCodec())
                .overflowDefault(OverflowPolicy.DROP_OLDEST)
                .inDirectory(dir)
                .liveness(liveness)
                .events(events)
                .clock(clock)
                .build();
    }

    /** {@link #sink} and {@link #channel} in one, for callers without a connection monitor probe. */
    public static StoreForwardChannel<QuestDbRow> channel(String connection, HistorianConfig config,
                                                          QuestDbSinkConfig sinkConfig, Path dir, Liveness liveness,
                                                          EventPublisher events, Clock clock)
            throws ConfigurationException {
        return channel(connection, config, sink(connection, config, sinkConfig, clock), dir, liveness, events, clock);
    }

    /** SQL over the same QuestDB HTTP endpoint, with the same TLS setting and credentials. */
    public static ExecClient execClient(HistorianConfig config, QuestDbSinkConfig sinkConfig) {
        URI base = URI.create((sinkConfig.tls() ? "https://" : "http://") + sinkConfig.address());
        var authorization = sinkConfig.token().map(token -> "Bearer " + token)
                .or(() -> sinkConfig.username().map(user -> ExecClient.basic(user, sinkConfig.password().orElse(""))));
        return new ExecClient(base, Duration.ofMillis(config.queryTimeoutMs()), authorization);
    }
}
