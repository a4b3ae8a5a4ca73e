package io.qubiq.sink.mongodb;

import com.mongodb.ConnectionString;
import io.qubiq.core.config.ConfigChecked;
import io.qubiq.core.config.Default;
import io.qubiq.core.config.Doc;
import io.qubiq.core.config.Range;
import io.qubiq.core.config.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the MongoDB sink reaches its server and how long it waits. The driver's own retries are
 * always off ({@code retryWrites=false}, {@code retryReads=false}): the store-and-forward channel
 * retries, the sink never does.
 */
@Doc("A MongoDB destination written with unordered bulk inserts and upserts (driver-sync 5).")
public record MongoSinkConfig(
        @Doc("MongoDB connection string, mongodb://[user:password@]host[:port][,host...][/auth_db][?options] or"
                + " mongodb+srv://... It may hold credentials: take it from the environment (${MONGODB_URI})."
                + " Options that the keys below also set are overridden by them; retryWrites and retryReads are"
                + " always off. Left out: mongodb://127.0.0.1:27017, a local server without credentials.")
        @Default("mongodb://127.0.0.1:27017")
        @Secret
        String connectionString,

        @Doc("The database written to; each document names its collection.")
        String database,

        @Doc("How long a write or probe waits for a usable server (the primary) before failing as transient:"
                + " the server is down, unreachable or has no primary.")
        @Default("5000")
        @Range(min = 1, max = 600000)
        long serverSelectionTimeoutMs,

        @Doc("How long opening a TCP connection (and the monitor's checks) may take.")
        @Default("5000")
        @Range(min = 1, max = 600000)
        long connectTimeoutMs,

        @Doc("How long the driver waits for MongoDB's answer once a write was sent. A write that times out has an"
                + " unknown outcome: it may have been applied.")
        @Default("30000")
        @Range(min = 1, max = 3600000)
        long socketTimeoutMs,

        @Doc("The acknowledgement every bulk write waits for: majority (the writes survive a replica-set"
                + " failover) or a number of members (1: the primary alone, faster, but a failover may roll"
                + " acknowledged writes back). 0, unacknowledged, is refused: the sink must know that a batch"
                + " arrived.")
        @Default("majority")
        String writeConcern) implements ConfigChecked {

    /** Characters MongoDB does not allow in a database name. */
    private static final String DATABASE_FORBIDDEN = "/\\. \"$*<>:|?\0";

    public MongoSinkConfig {
        Objects.requireNonNull(connectionString, "connectionString");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(writeConcern, "writeConcern");
    }

    /** {@code connectionString} and {@code database}, every other key at its default. */
    public static MongoSinkConfig of(String connectionString, String database) {
        return new MongoSinkConfig(connectionString, database, 5_000, 5_000, 30_000, "majority");
    }

    public MongoSinkConfig withTimeouts(long serverSelectionMs, long connectMs, long socketMs) {
        return new MongoSinkConfig(connectionString, database, serverSelectionMs, connectMs, socketMs, writeConcern);
    }

    public MongoSinkConfig withWriteConcern(String value) {
        return new MongoSinkConfig(connectionString, database, serverSelectionTimeoutMs, connectTimeoutMs,
                socketTimeoutMs, value);
    }

    @Override
    public List<Violation> violations() {
        List<Violation> violations = new ArrayList<>();
        connectionStringProblem().ifPresent(problem -> violations.add(new Violation("connection_string", problem)));
        if (database.isEmpty() || database.length() > 63 || database.chars().anyMatch(c -> DATABASE_FORBIDDEN.indexOf(c) >= 0)) {
            violations.add(new Violation("database", "expected 1 to 63 characters without / \\ . space \" $ * < > : | ?,"
                    + " was \"" + database + "\""));
        }
        if (!writeConcern.equals("majority")) {
            int members = writeConcernMembers();
            if (members == 0) {
                violations.add(new Violation("write_concern", "0 (unacknowledged) cannot work: the sink must know"
                        + " that a batch arrived; use majority or 1"));
            } else if (members < 0) {
                violations.add(new Violation("write_concern", "expected majority or a number of members from 1 to 50,"
                        + " was \"" + writeConcern + "\""));
            }
        }
        return violations;
    }

    /** The number of members {@code write_concern} asks for; 0 for "0", -1 unless a number 0 to 50. */
    int writeConcernMembers() {
        if (writeConcern.isEmpty() || writeConcern.length() > 2 || !writeConcern.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        int members = Integer.parseInt(writeConcern);
        return members <= 50 ? members : -1;
    }

    /** What is wrong with the connection string, never quoting it (it may hold a password). */
    private Optional<String> connectionStringProblem() {
        if (!connectionString.startsWith("mongodb://") && !connectionString.startsWith("mongodb+srv://")) {
            return Optional.of("must start with mongodb:// or mongodb+srv://");
        }
        try {
            new ConnectionString(connectionString);
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of("is not a valid MongoDB connection string: "
                    + Redaction.withoutCredentials(String.valueOf(e.getMessage()), connectionString));
        }
    }
}
