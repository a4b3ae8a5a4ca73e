package io.qubiq.sink.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import java.util.concurrent.TimeUnit;
import org.bson.UuidRepresentation;

/**
 * The driver settings of one sink: the connection string first, then the sink's own keys on top
 * (they win over the same options in the string), retries always off, and an application name
 * that shows up in MongoDB's logs and {@code currentOp}. Stateless.
 */
final class DriverSettings {

    private DriverSettings() {
    }

    static MongoClientSettings of(String connectionId, MongoSinkConfig config) {
        WriteConcern writeConcern = config.writeConcern().equals("majority") ? WriteConcern.MAJORITY
                : new WriteConcern(config.writeConcernMembers());
        String applicationName = "qubiq:" + connectionId;
        return MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(config.connectionString()))
                .applicationName(applicationName.length() > 100 ? applicationName.substring(0, 100) : applicationName)
                .retryWrites(false)
                .retryReads(false)
                .writeConcern(writeConcern)
                .uuidRepresentation(UuidRepresentation.STANDARD)
                .applyToClusterSettings(cluster -> cluster
                        .serverSelectionTimeout(config.serverSelectionTimeoutMs(), TimeUnit.MILLISECONDS))
                .applyToSocketSettings(socket -> socket
                        .connectTimeout((int) config.connectTimeoutMs(), TimeUnit.MILLISECONDS)
                        .readTimeout((int) config.socketTimeoutMs(), TimeUnit.MILLISECONDS))
                .build();
    }
}
