package io.qubiq.sink.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteConcernResult;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.WriteConcernError;
import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.PermanentException.RejectedItem;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bson.BsonDocument;
import org.bson.BsonMaximumSizeExceededException;
import org.junit.jupiter.api.Test;

/** The classification rules on the driver's own exception types, without a server. */
class MongoFailureClassifierTest {

    private static final ServerAddress SERVER = new ServerAddress("db.plant.local", 27017);
    private final MongoFailureClassifier classifier = new MongoFailureClassifier();

    private static MongoCommandException commandError(int code, String name) {
        return new MongoCommandException(BsonDocument.parse("{ok: 0, code: " + code + ", codeName: '" + name
                + "', errmsg: 'failed: " + name + "'}"), SERVER);
    }

    @Test
    void aReadTimeoutAfterSendingIsAnUnknownOutcomeThoughItIsASocketException() {
        GatewayException verdict = classifier.classify(new MongoSocketReadTimeoutException(
                "Timeout while receiving message", SERVER, new SocketTimeoutException("Read timed out")));

        assertThat(verdict).isInstanceOf(UnknownOutcomeException.class).hasMessageContaining("socket_timeout_ms");
    }

    @Test
    void otherSocketFailuresAndServerSelectionTimeoutsAreTransient() {
        assertThat(classifier.classify(new MongoSocketOpenException("Exception opening socket", SERVER,
                new ConnectException("Connection refused")))).isInstanceOf(TransientException.class);
        assertThat(classifier.classify(new MongoSocketReadException("Prematurely reached end of stream", SERVER)))
                .isInstanceOf(TransientException.class);
        assertThat(classifier.classify(new MongoTimeoutException("Timed out while waiting for a server that matches"
                + " WritableServerSelector"))).isInstanceOf(TransientException.class);
    }

    @Test
    void anOperationTimeoutMayHaveBeenAppliedSoItIsAnUnknownOutcome() {
        assertThat(classifier.classify(new MongoOperationTimeoutException("Operation exceeded the timeout limit")))
                .isInstanceOf(UnknownOutcomeException.class);
    }

    @Test
    void serverCodesSayingTheWriteWasNotAppliedAreTransient() {
        for (int code : MongoFailureClassifier.NOT_APPLIED) {
            assertThat(classifier.classify(commandError(code, "X"))).as("code %d", code)
                    .isInstanceOf(TransientException.class);
        }
    }

    @Test
    void refusedCredentialsAreAConfigurationErrorOfTheConnectionString() {
        GatewayException security = classifier.classify(new MongoSecurityException(
                MongoCredential.createCredential("gateway", "admin", "secret".toCharArray()), "Exception authenticating"));
        GatewayException unauthorized = classifier.classify(commandError(13, "Unauthorized"));

        for (GatewayException verdict : List.of(security, unauthorized)) {
            assertThat(verdict).isInstanceOf(ConfigurationException.class);
            assertThat(((ConfigurationException) verdict).key()).isEqualTo("connection_string");
        }
    }

    @Test
    void anUnsatisfiedWriteConcernIsAnUnknownOutcome() {
        WriteConcernError error = new WriteConcernError(64, "WriteConcernFailed", "waiting for replication timed out",
                new BsonDocument());

        assertThat(classifier.classify(new MongoWriteConcernException(error, WriteConcernResult.acknowledged(0, false, null),
                SERVER, Set.of())))
                .isInstanceOf(UnknownOutcomeException.class).hasMessageContaining("64");
    }

    @Test
    void otherServerErrorsArePermanentWithoutNamingDocuments() {
        GatewayException verdict = classifier.classify(commandError(2, "BadValue"));

        assertThat(verdict).isInstanceOf(PermanentException.class);
        assertThat(((PermanentException) verdict).itemsKnown()).isFalse();
        assertThat(classifier.classify(commandError(50, "MaxTimeMSExpired"))).isInstanceOf(UnknownOutcomeException.class);
    }

    @Test
    void aDocumentTheDriverRefusesBeforeSendingIsPermanent() {
        assertThat(classifier.classify(new BsonMaximumSizeExceededException("Payload document size is larger than"
                + " maximum of 16793600."))).isInstanceOf(PermanentException.class);
    }

    @Test
    void anInterruptedWriteIsAnUnknownOutcomeAndKeepsTheInterrupt() {
        try {
            GatewayException verdict = classifier.classify(new MongoInterruptedException("Interrupted",
                    new InterruptedException()));
            assertThat(verdict.failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    // ------------------------------------------------------------------ per-document errors of a bulk write

    /** Three documents that went to "readings" as batch items 1, 3 and 4. */
    private static CollectionBatch sent(MongoDocument... documents) {
        return new CollectionBatch("readings", List.of(documents), new int[] {1, 3, 4});
    }

    private static MongoDocument insert(String itemId) {
        return MongoDocument.insert(itemId, "readings", Map.of("v", 1));
    }

    private static BulkWriteError duplicate(int index, String indexName, String key) {
        return new BulkWriteError(11000, "E11000 duplicate key error collection: plant.readings index: " + indexName
                + " dup key: { " + key + " }", new BsonDocument(), index);
    }

    private static MongoBulkWriteException bulk(WriteConcernError concern, BulkWriteError... errors) {
        return new MongoBulkWriteException(BulkWriteResult.acknowledged(0, 0, 0, 0, List.of(), List.of()),
                List.of(errors), concern, SERVER, Set.of());
    }

    @Test
    void aDuplicateIdOfTheItemsOwnIdIsAlreadyStoredNotAnError() throws Exception {
        MongoFailureClassifier.BulkVerdict verdict = classifier.bulkWriteFailed(
                bulk(null, duplicate(0, "_id_", "_id: \"a\""), duplicate(2, "_id_", "_id: \"c\"")),
                sent(insert("a"), insert("b"), insert("c")));

        assertThat(verdict.alreadyStored()).isEqualTo(2);
        assertThat(verdict.rejected()).isEmpty();
    }

    @Test
    void otherWriteErrorsRejectExactlyThoseDocumentsByTheirBatchIndex() throws Exception {
        MongoDocument ownId = MongoDocument.insert("c", "readings", Map.of("_id", "serial-9"));
        MongoFailureClassifier.BulkVerdict verdict = classifier.bulkWriteFailed(
                bulk(null, duplicate(1, "serial_1", "serial: \"S9\""), duplicate(2, "_id_", "_id: \"serial-9\"")),
                sent(insert("a"), insert("b"), ownId));

        assertThat(verdict.alreadyStored()).isZero();
        assertThat(verdict.rejected()).extracting(RejectedItem::index).containsExactly(3, 4);
        assertThat(verdict.rejected().get(0).reason()).contains("11000").contains("serial_1");
        assertThat(verdict.rejected().get(1).reason()).contains("duplicate _id").contains("unknown outcome");
    }

    @Test
    void theKeyPatternInTheErrorDetailsIdentifiesTheIdIndexToo() throws Exception {
        BulkWriteError withPattern = new BulkWriteError(11000, "E11000 duplicate key error",
                BsonDocument.parse("{keyPattern: {_id: 1}, keyValue: {_id: 'a'}}"), 0);
        BulkWriteError otherPattern = new BulkWriteError(11000, "E11000 duplicate key error index: _id_ dup key",
                BsonDocument.parse("{keyPattern: {_id: 1, line: 1}}"), 1);

        assertThat(MongoFailureClassifier.isDuplicateId(withPattern)).isTrue();
        assertThat(MongoFailureClassifier.isDuplicateId(otherPattern)).isFalse();
        assertThat(classifier.bulkWriteFailed(bulk(null, withPattern), sent(insert("a"), insert("b"), insert("c")))
                .alreadyStored()).isEqualTo(1);
    }

    @Test
    void aNotPrimaryWriteErrorMakesTheWholeBatchTransient() {
        assertThatThrownBy(() -> classifier.bulkWriteFailed(
                bulk(null, duplicate(0, "serial_1", "serial: 1"), new BulkWriteError(10107, "not primary",
                        new BsonDocument(), 1)), sent(insert("a"), insert("b"), insert("c"))))
                .isInstanceOf(TransientException.class).hasMessageContaining("10107");
    }

    @Test
    void aWriteConcernErrorOnABulkWriteIsAnUnknownOutcome() {
        WriteConcernError concern = new WriteConcernError(100, "UnsatisfiableWriteConcern", "Not enough data-bearing"
                + " nodes", new BsonDocument());

        assertThatThrownBy(() -> classifier.bulkWriteFailed(bulk(concern), sent(insert("a"), insert("b"), insert("c"))))
                .isInstanceOf(UnknownOutcomeException.class);
    }

    @Test
    void aWriteErrorNamingNoDocumentOfTheBulkIsPermanentForTheBatch() {
        assertThatThrownBy(() -> classifier.bulkWriteFailed(bulk(null, duplicate(7, "serial_1", "serial: 1")),
                sent(insert("a"), insert("b"), insert("c"))))
                .isInstanceOf(PermanentException.class)
                .satisfies(e -> assertThat(((PermanentException) e).itemsKnown()).isFalse());
    }
}
