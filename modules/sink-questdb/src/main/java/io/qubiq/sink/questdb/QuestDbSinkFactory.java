package io.qubiq.sink.questdb;

import io.qubiq.core.error.ConfigurationException;
import java.time.Clock;

/** Makes the QuestDB sink and codec of one outbound connection from its configuration. */
public final class QuestDbSinkFactory {

    private final Clock clock;

    public QuestDbSinkFactory(Clock clock) {
        this.clock = clock;
    }

    public QuestDbSinkFactory() {
        this(Clock.systemUTC());
    }

    /**
     * @param id the outbound connection's id
     * @throws ConfigurationException when the configuration cannot work (malformed address,
     *     contradictory credentials)
     */
    public QuestDbSink create(String id, QuestDbSinkConfig config) throws ConfigurationException {
        return new QuestDbSink(id, config, clock);
    }

    /** The codec the channel stores this sink's rows with. */
    public QuestDbRowCodec codec() {
        return new QuestDbRowCodec();
    }
}
