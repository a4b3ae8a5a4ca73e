package io.qubiq.sink.mongodb;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.BulkWriteOptions;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.PermanentException.RejectedItem;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bson.codecs.configuration.CodecRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@link MongoDocument}s to one MongoDB database with the sync driver. Each {@link #write}
 * groups the batch by collection and sends one unordered {@code bulkWrite} per collection (an
 * {@code InsertOneModel} per INSERT, a {@code ReplaceOneModel} with {@code upsert: true} per
 * UPSERT), with the configured write concern; it returns only when every collection acknowledged
 * its documents.
 *
 * <p>Failures are classified by {@link MongoFailureClassifier}. A duplicate {@code _id} for a
 * document whose {@code _id} is its item id means the item is already stored (a replay): it counts
 * as delivered, and when every error of a batch is such a duplicate the write returns normally.
 * Other per-document errors end the write with {@link PermanentException#partial} naming exactly
 * those documents (their index in the batch): an unordered bulk wrote all the others. The sink
 * never retries and never sleeps; the driver's retries are off.
 *
 * <p>The client is made on first use and kept (the driver reconnects by itself) until {@link #close}.
 *
 * <p>Threading: {@link #write} and {@link #close} are called by one thread at a time (the channel's
 * forwarder, or a producer under the channel's latch); {@link #probe} may run concurrently on the
 * monitor's thread and uses a pooled connection of its own.
 */
public final class MongoSink implements Sink<MongoDocument> {

    private static final Logger log = LoggerFactory.getLogger(MongoSink.class);
    private static final BulkWriteOptions UNORDERED = new BulkWriteOptions().ordered(false);
    private static final int MAX_CACHED_COLLECTIONS = 1024;

    private final String id;
    private final String database;
    private final MongoClientSettings settings;
    private final CodecRegistry codecs;
    private final MongoFailureClassifier classifier = new MongoFailureClassifier();
    private final PingProbe probe;
    private final Clock clock;
    /** Owned by the writing thread. */
    private final Map<String, MongoCollection<MongoDocument>> collections = new HashMap<>();
    private MongoClient client;
    private volatile boolean closed;

    /**
     * @throws ConfigurationException when the configuration cannot work (the same checks the
     *     configuration binder reports, plus what the driver refuses)
     */
    public MongoSink(String id, MongoSinkConfig config, Clock clock) throws ConfigurationException {
        this.id = Objects.requireNonNull(id, "id");
        this.clock = Objects.requireNonNull(clock, "clock");
        List<MongoSinkConfig.Violation> violations = config.violations();
        if (!violations.isEmpty()) {
            MongoSinkConfig.Violation first = violations.get(0);
            throw new ConfigurationException(first.key(), first.message());
        }
        try {
            this.settings = DriverSettings.of(id, config);
        } catch (RuntimeException e) {
            throw new ConfigurationException("connection_string", "the MongoDB driver rejects this configuration: "
                    + Redaction.withoutCredentials(String.valueOf(e.getMessage()), config.connectionString()));
        }
        this.database = config.database();
        this.codecs = new SinkCodecRegistry();
        this.probe = new PingProbe(database, clock);
    }

    public MongoSink(String id, MongoSinkConfig config) throws ConfigurationException {
        this(id, config, Clock.systemUTC());
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void write(List<MongoDocument> batch) throws GatewayException {
        if (closed) {
            throw new IllegalStateException("MongoDB sink " + id + " is closed");
        }
        if (batch.isEmpty()) {
            return;
        }
        List<RejectedItem> rejected = new ArrayList<>();
        int alreadyStored = 0;
        for (CollectionBatch part : CollectionBatch.split(batch)) {
            try {
                collection(part.collection()).bulkWrite(part.models(), UNORDERED);
            } catch (MongoBulkWriteException e) {
                MongoFailureClassifier.BulkVerdict verdict = classifier.bulkWriteFailed(e, part);
                rejected.addAll(verdict.rejected());
                alreadyStored += verdict.alreadyStored();
            } catch (RuntimeException e) {
                GatewayException failure = classifier.classify(e);
                log.debug("MongoDB write of {} documents to {}.{} for {} failed ({}): {}", part.documents().size(),
                        database, part.collection(), id, failure.failureClass(), e.getMessage());
                throw failure;
            }
        }
        if (alreadyStored > 0) {
            log.debug("{} of {} documents for {} were already stored (a replay); counted as delivered", alreadyStored,
                    batch.size(), id);
        }
        if (!rejected.isEmpty()) {
            rejected.sort((a, b) -> Integer.compare(a.index(), b.index()));
            throw PermanentException.partial("MongoDB rejected " + rejected.size() + " of " + batch.size()
                    + " documents (the others were written); first: " + rejected.get(0).reason(), rejected, null);
        }
    }

    @Override
    public ConnectionStatus probe() {
        if (closed) {
            return ConnectionStatus.down(clock.instant(), "the MongoDB sink " + id + " is closed");
        }
        MongoClient current;
        try {
            current = client();
        } catch (ConfigurationException | RuntimeException e) {
            return ConnectionStatus.down(clock.instant(), e.getMessage());
        }
        return probe.probe(current);
    }

    /**
     * Always true: every write is keyed, so a replay cannot store a document twice. An INSERT's
     * {@code _id} is its item id (a replay is recognised as already delivered) or the caller's own
     * {@code _id} (a replay is rejected as a duplicate and quarantined, never stored twice); an
     * UPSERT replaces the document with the same key fields by itself.
     */
    @Override
    public boolean idempotent() {
        return true;
    }

    @Override
    public void close() {
        MongoClient current;
        synchronized (this) {
            closed = true;
            current = client;
            client = null;
        }
        collections.clear();
        if (current != null) {
            try {
                current.close();
            } catch (RuntimeException e) {
                log.debug("Closing the MongoDB client of {} failed: {}", id, e.toString());
            }
        }
    }

    private synchronized MongoClient client() throws ConfigurationException {
        if (closed) {
            throw new IllegalStateException("MongoDB sink " + id + " is closed");
        }
        if (client == null) {
            try {
                client = MongoClients.create(settings);
            } catch (RuntimeException e) {
                throw new ConfigurationException("connection_string", "the MongoDB driver cannot create a client: "
                        + e.getMessage(), e);
            }
        }
        return client;
    }

    private MongoCollection<MongoDocument> collection(String name) throws ConfigurationException {
        MongoCollection<MongoDocument> collection = collections.get(name);
        if (collection == null) {
            if (collections.size() >= MAX_CACHED_COLLECTIONS) {
                collections.clear();
            }
            MongoDatabase db = client().getDatabase(database).withCodecRegistry(codecs);
            collection = db.getCollection(name, MongoDocument.class);
            collections.put(name, collection);
        }
        return collection;
    }
}
