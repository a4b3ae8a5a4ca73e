package io.qubiq.sink.mongodb;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoException;
import com.mongodb.MongoIncompatibleDriverException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoServerUnavailableException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.WriteConcernError;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.PermanentException.RejectedItem;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * Turns a failed MongoDB write into the failure class the channel acts on, by the driver's
 * exception types and the server's error codes (never by message text, except to find the index a
 * duplicate key was reported on).
 *
 * <table>
 *   <caption>Classification</caption>
 *   <tr><th>Driver failure</th><th>Class</th></tr>
 *   <tr><td>{@code MongoSocketReadTimeoutException} (no answer within socket_timeout_ms after the
 *       write was sent); checked before its superclass</td><td>unknown outcome</td></tr>
 *   <tr><td>any other {@code MongoSocketException}: refused, reset, closed, cannot resolve</td><td>transient</td></tr>
 *   <tr><td>{@code MongoOperationTimeoutException} (a {@code timeoutMS} set in the connection string
 *       expired; the write may have been sent)</td><td>unknown outcome</td></tr>
 *   <tr><td>{@code MongoTimeoutException}: no server selected within server_selection_timeout_ms</td><td>transient</td></tr>
 *   <tr><td>connection pool cleared, server unavailable</td><td>transient</td></tr>
 *   <tr><td>server error codes saying the write was not applied: not primary, shutting down,
 *       stepped down, host unreachable, network error ({@link #NOT_APPLIED})</td><td>transient</td></tr>
 *   <tr><td>write concern not satisfied (the writes were applied on the primary only)</td><td>unknown outcome</td></tr>
 *   <tr><td>{@code MongoSecurityException}, codes 13 and 18, an incompatible server</td><td>configuration ({@code connection_string})</td></tr>
 *   <tr><td>{@code MongoBulkWriteException}: code 11000 on the {@code _id} index for a document whose
 *       {@code _id} is its item id</td><td>already delivered (not a failure)</td></tr>
 *   <tr><td>{@code MongoBulkWriteException}: any other write error</td><td>permanent, exactly those
 *       documents; the rest of the unordered bulk was written</td></tr>
 *   <tr><td>server error code 50: the write's time limit expired part-way</td><td>unknown outcome</td></tr>
 *   <tr><td>any other server error</td><td>permanent, documents unknown</td></tr>
 *   <tr><td>the driver refused a document before sending (too large, bad name)</td><td>permanent, documents unknown</td></tr>
 *   <tr><td>interrupted, or anything else</td><td>unknown outcome</td></tr>
 * </table>
 *
 * <p>Stateless and thread-safe.
 */
final class MongoFailureClassifier {

    /** MongoDB's duplicate key error. */
    static final int DUPLICATE_KEY = 11000;

    /**
     * Server error codes that mean the operation was not applied and may simply be sent again:
     * HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown,
     * ExceededTimeLimit, SocketException, NotWritablePrimary, InterruptedAtShutdown,
     * InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary.
     */
    static final Set<Integer> NOT_APPLIED = Set.of(6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436);

    private static final Set<Integer> UNAUTHORIZED = Set.of(13, 18);
    private static final int MAX_TIME_EXPIRED = 50;
    private static final Pattern DUPLICATE_INDEX = Pattern.compile(" index: (\\S+) dup key");
    private static final String ID_INDEX = "_id_";

    /** What one collection's partly failed bulk write did. */
    record BulkVerdict(List<RejectedItem> rejected, int alreadyStored) {
    }

    /** A failure of a whole write: nothing says which documents, if any, were written. */
    GatewayException classify(RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        if (e instanceof MongoSocketReadTimeoutException) {
            return new UnknownOutcomeException("MongoDB did not answer within socket_timeout_ms after the write was"
                    + " sent; it may have been applied: " + message, e);
        }
        if (e instanceof MongoSocketException) {
            return new TransientException("MongoDB connection failed: " + message, e);
        }
        if (e instanceof MongoOperationTimeoutException) {
            return new UnknownOutcomeException("MongoDB operation timed out (timeoutMS); it may have been applied: "
                    + message, e);
        }
        if (e instanceof MongoTimeoutException || e instanceof MongoConnectionPoolClearedException
                || e instanceof MongoServerUnavailableException) {
            return new TransientException("no MongoDB server available: " + message, e);
        }
        if (e instanceof MongoSecurityException) {
            return new ConfigurationException("connection_string", "MongoDB refused the credentials: " + message, e);
        }
        if (e instanceof MongoIncompatibleDriverException) {
            return new ConfigurationException("connection_string", "the MongoDB server is too old for this driver: "
                    + message, e);
        }
        if (e instanceof MongoInterruptedException) {
            Thread.currentThread().interrupt();
            return new UnknownOutcomeException("interrupted while writing to MongoDB: " + message, e);
        }
        if (e instanceof MongoWriteConcernException wce) {
            return writeConcernFailed(wce.getWriteConcernError(), e);
        }
        if (e instanceof MongoServerException server) {
            return serverError(server.getCode(), message, e);
        }
        if (e instanceof MongoException) {
            return new UnknownOutcomeException("the MongoDB driver failed without a verdict: " + message, e);
        }
        if (e instanceof IllegalArgumentException || e instanceof org.bson.BSONException
                || e instanceof org.bson.codecs.configuration.CodecConfigurationException) {
            return new PermanentException("the MongoDB driver refused a document of the batch before sending it: "
                    + e, e);
        }
        return new UnknownOutcomeException("MongoDB write failed unexpectedly: " + e, e);
    }

    /**
     * The verdict on one collection's unordered bulk write that failed for some documents: every
     * document without a write error was written.
     *
     * @return the documents MongoDB rejected, named by their index in the channel's batch, and how
     *     many were duplicates of their own earlier write (already delivered); no rejected documents
     *     when every error was such a duplicate
     * @throws GatewayException when the failure concerns the whole batch: a write error saying the
     *     server could not apply writes (transient), an unsatisfied write concern (unknown outcome),
     *     or a write error naming no document of the bulk (permanent, documents unknown)
     */
    BulkVerdict bulkWriteFailed(MongoBulkWriteException e, CollectionBatch sent) throws GatewayException {
        for (BulkWriteError error : e.getWriteErrors()) {
            if (NOT_APPLIED.contains(error.getCode())) {
                throw new TransientException("MongoDB could not apply the writes to " + sent.collection()
                        + " (code " + error.getCode() + "): " + error.getMessage(), e);
            }
        }
        if (e.getWriteConcernError() != null) {
            throw writeConcernFailed(e.getWriteConcernError(), e);
        }
        List<RejectedItem> rejected = new ArrayList<>();
        int alreadyStored = 0;
        for (BulkWriteError error : e.getWriteErrors()) {
            int index = error.getIndex();
            if (index < 0 || index >= sent.documents().size()) {
                throw new PermanentException("MongoDB reported a write error for document " + index
                        + " of a bulk of " + sent.documents().size() + " to " + sent.collection() + ": "
                        + error.getMessage(), e);
            }
            MongoDocument document = sent.documents().get(index);
            int batchIndex = sent.batchIndexes()[index];
            if (isDuplicateId(error)) {
                if (document.keyedByItemId()) {
                    alreadyStored++;
                } else {
                    rejected.add(new RejectedItem(batchIndex, "duplicate _id in " + sent.collection() + ": a document"
                            + " with this _id exists (if item " + document.itemId() + " was written before with an"
                            + " unknown outcome, it is that write): " + error.getMessage()));
                }
            } else {
                rejected.add(new RejectedItem(batchIndex, "MongoDB rejected the document (code " + error.getCode()
                        + "): " + error.getMessage()));
            }
        }
        return new BulkVerdict(rejected, alreadyStored);
    }

    /** A duplicate key error on the {@code _id} index, by the key pattern if given, else by the index name. */
    static boolean isDuplicateId(BulkWriteError error) {
        if (error.getCode() != DUPLICATE_KEY) {
            return false;
        }
        BsonDocument details = error.getDetails();
        BsonValue keyPattern = details == null ? null : details.get("keyPattern");
        if (keyPattern != null && keyPattern.isDocument()) {
            return keyPattern.asDocument().size() == 1 && keyPattern.asDocument().containsKey(MongoDocument.ID);
        }
        Matcher index = DUPLICATE_INDEX.matcher(String.valueOf(error.getMessage()));
        return index.find() && index.group(1).equals(ID_INDEX);
    }

    private static GatewayException serverError(int code, String message, RuntimeException e) {
        if (NOT_APPLIED.contains(code)) {
            return new TransientException("MongoDB could not apply the write now (code " + code + "): " + message, e);
        }
        if (UNAUTHORIZED.contains(code)) {
            return new ConfigurationException("connection_string", "MongoDB refused the user (code " + code + "): "
                    + message, e);
        }
        if (code == MAX_TIME_EXPIRED) {
            return new UnknownOutcomeException("MongoDB stopped the write at its time limit; part of it may have been"
                    + " applied: " + message, e);
        }
        return new PermanentException("MongoDB rejected the write (code " + code + "): " + message, e);
    }

    private static GatewayException writeConcernFailed(WriteConcernError error, RuntimeException e) {
        return new UnknownOutcomeException("MongoDB applied the writes but did not confirm the write concern (code "
                + error.getCode() + "): " + error.getMessage(), e);
    }
}
