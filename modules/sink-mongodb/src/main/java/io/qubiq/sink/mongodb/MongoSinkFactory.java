package io.qubiq.sink.mongodb;

import io.qubiq.core.error.ConfigurationException;
import java.time.Clock;

/** Makes the MongoDB sink and codec of one outbound connection from its configuration. */
public final class MongoSinkFactory {

    private final Clock clock;

    public MongoSinkFactory(Clock clock) {
        this.clock = clock;
    }

    public MongoSinkFactory() {
        this(Clock.systemUTC());
    }

    /**
     * @param id the outbound connection's id
     * @throws ConfigurationException when the configuration cannot work (a malformed connection
     *     string, an invalid database name, write concern 0)
     */
    public MongoSink create(String id, MongoSinkConfig config) throws ConfigurationException {
        return new MongoSink(id, config, clock);
    }

    /** The codec the channel stores this sink's documents with. */
    public MongoDocumentCodec codec() {
        return new MongoDocumentCodec();
    }
}
