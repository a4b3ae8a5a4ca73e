package io.qubiq.sink.sql;

import io.qubiq.core.error.ConfigurationException;
import java.time.Clock;

/** Makes the SQL sink and codec of one outbound connection from its configuration. */
public final class SqlSinkFactory {

    private final Clock clock;

    public SqlSinkFactory(Clock clock) {
        this.clock = clock;
    }

    public SqlSinkFactory() {
        this(Clock.systemUTC());
    }

    /**
     * Creates the sink and its (empty) connection pool; nothing is connected yet.
     *
     * @param id the outbound connection's id
     * @throws ConfigurationException when the configuration cannot work (a URL no driver accepts,
     *     a password without a username)
     */
    public SqlSink create(String id, SqlSinkConfig config) throws ConfigurationException {
        return new SqlSink(id, config, clock);
    }

    /** The codec the channel stores this sink's rows with. */
    public SqlRowCodec codec() {
        return new SqlRowCodec();
    }
}
