package io.qubiq.sink.mongodb;

import com.mongodb.client.MongoClient;
import io.qubiq.core.health.ConnectionStatus;
import java.time.Clock;
import org.bson.Document;

/**
 * Checks a MongoDB destination without writing: the {@code ping} command on the sink's database,
 * through the sink's client (on a pooled connection of its own, so it never disturbs a write in
 * progress). An answer is UP; no server within server_selection_timeout_ms, a network error or any
 * other failure is DOWN with the reason. Never throws.
 *
 * <p>Thread-safe: the driver's client is.
 */
final class PingProbe {

    private static final Document PING = new Document("ping", 1);
    private static final int MAX_REASON_CHARS = 500;

    private final String database;
    private final Clock clock;

    PingProbe(String database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    ConnectionStatus probe(MongoClient client) {
        try {
            client.getDatabase(database).runCommand(PING);
            return ConnectionStatus.up(clock.instant());
        } catch (RuntimeException e) {
            String reason = "ping failed: " + e.getClass().getSimpleName() + ": " + e.getMessage();
            return ConnectionStatus.down(clock.instant(),
                    reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) + "…" : reason);
        }
    }
}
