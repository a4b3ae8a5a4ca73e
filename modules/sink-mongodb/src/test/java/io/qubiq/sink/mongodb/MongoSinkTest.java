package io.qubiq.sink.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.PermanentException.RejectedItem;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.testkit.mongo.MongoServerExtension;
import io.qubiq.testkit.mongo.MongoTestServer;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.Document;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** What the sink stores and how it reports rejected documents, against a real server; each test has its own collection. */
@ExtendWith(MongoServerExtension.class)
class MongoSinkTest {

    static MongoTestServer mongo;
    static MongoClient reader;
    private static final AtomicInteger TESTS = new AtomicInteger();
    private static final String DATABASE = "plant1";
    private MongoSink sink;
    private String collection;

    @BeforeAll
    static void connect() {
        reader = MongoClients.create(mongo.connectionString());
    }

    @AfterAll
    static void disconnect() {
        reader.close();
    }

    @BeforeEach
    void openSink() throws Exception {
        collection = "readings" + TESTS.incrementAndGet();
        sink = new MongoSink("mongo", MongoSinkConfig.of(mongo.connectionString(), DATABASE).withTimeouts(5000, 5000, 10000));
    }

    @AfterEach
    void closeSink() {
        sink.close();
    }

    private MongoCollection<Document> stored(String name) {
        return reader.getDatabase(DATABASE).getCollection(name);
    }

    private MongoDocument reading(String itemId, String serial) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("serial", serial);
        fields.put("value", 1.5);
        return MongoDocument.insert(itemId, collection, fields);
    }

    private List<Object> ids(String name) {
        List<Object> ids = new ArrayList<>();
        stored(name).find().forEach(d -> ids.add(d.get("_id")));
        return ids;
    }

    @Test
    void everyValueTypeIsStoredAsItsBsonTypeUnderTheItemId() throws Exception {
        sink.write(List.of(MongoDocumentCodecTest.everyType()));

        BsonDocument doc = reader.getDatabase(DATABASE).getCollection("readings", BsonDocument.class).find().first();
        assertThat(doc).isNotNull();
        assertThat(doc.getFirstKey()).isEqualTo("_id");
        assertThat(doc.getString("_id").getValue()).isEqualTo("item-ü-1");
        assertThat(doc.get("text").getBsonType()).isEqualTo(BsonType.STRING);
        assertThat(doc.getString("text").getValue()).isEqualTo("ünïcödé \"quoted\" \u0001 and 𝄞");
        assertThat(doc.getInt32("int").getValue()).isEqualTo(Integer.MIN_VALUE);
        assertThat(doc.getInt64("long").getValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(doc.getDouble("double").getValue()).isEqualTo(-0.0);
        assertThat(doc.getDouble("nan").getValue()).isNaN();
        assertThat(doc.getBoolean("yes").getValue()).isTrue();
        assertThat(doc.getDecimal128("decimal").getValue()).isEqualTo(new Decimal128(new BigDecimal("1234.5000")));
        assertThat(doc.getDateTime("at").getValue()).isEqualTo(Instant.parse("2026-03-04T05:06:07.123Z").toEpochMilli());
        assertThat(doc.getDateTime("before1970").getValue()).isEqualTo(-1L);
        assertThat(doc.isNull("none")).isTrue();
        assertThat(doc.getDocument("nested").getArray("b").get(3).asDocument().getBoolean("deep").getValue()).isTrue();
        assertThat(doc.getDocument("nested").getArray("a").get(0).isNull()).isTrue();
        assertThat(doc.getDocument("empty")).isEmpty();
        assertThat(doc.getArray("emptyList")).isEmpty();
        reader.getDatabase(DATABASE).getCollection("readings").drop();
    }

    @Test
    void aDocumentViolatingAUniqueIndexIsRejectedAloneAndTheOtherFourAreStored() throws Exception {
        stored(collection).createIndex(Indexes.ascending("serial"), new IndexOptions().unique(true));
        sink.write(List.of(reading("old", "S-7")));
        List<MongoDocument> batch = List.of(reading("a", "S-1"), reading("b", "S-2"), reading("c", "S-3"),
                reading("d", "S-7"), reading("e", "S-5"));

        assertThatThrownBy(() -> sink.write(batch))
                .isInstanceOf(PermanentException.class)
                .satisfies(e -> {
                    PermanentException p = (PermanentException) e;
                    assertThat(p.othersWritten()).isTrue();
                    assertThat(p.rejected()).extracting(RejectedItem::index).containsExactly(3);
                    assertThat(p.rejected().get(0).reason()).contains("11000").contains("serial");
                });

        assertThat(ids(collection)).containsExactlyInAnyOrder("old", "a", "b", "c", "e");
    }

    @Test
    void aReplayedBatchReturnsNormallyAndStoresNoDuplicates() throws Exception {
        List<MongoDocument> batch = List.of(reading("a", "S-1"), reading("b", "S-2"), reading("c", "S-3"));
        sink.write(batch);

        sink.write(batch);
        sink.write(List.of(reading("b", "S-2"), reading("d", "S-4"), reading("a", "S-1")));

        assertThat(ids(collection)).containsExactly("a", "b", "c", "d");
    }

    @Test
    void aReplayedDocumentWithItsOwnIdIsRejectedAsADuplicateNeverStoredTwice() throws Exception {
        MongoDocument ownId = MongoDocument.insert("item-9", collection, Map.of("_id", "pump-9", "state", "on"));
        sink.write(List.of(ownId));

        assertThatThrownBy(() -> sink.write(List.of(reading("x", "S-1"), ownId)))
                .isInstanceOf(PermanentException.class)
                .satisfies(e -> {
                    assertThat(((PermanentException) e).rejected()).extracting(RejectedItem::index).containsExactly(1);
                    assertThat(((PermanentException) e).rejected().get(0).reason()).contains("duplicate _id");
                });
        assertThat(ids(collection)).containsExactly("pump-9", "x");
    }

    @Test
    void anUpsertReplacesTheDocumentWithTheSameKeyAndInsertsWhenNoneMatches() throws Exception {
        Map<String, Object> running = new LinkedHashMap<>();
        running.put("line", 2);
        running.put("asset", "P-101");
        running.put("state", "running");
        running.put("rpm", 1450);
        Map<String, Object> stopped = new LinkedHashMap<>();
        stopped.put("line", 2);
        stopped.put("asset", "P-101");
        stopped.put("state", "stopped");
        Map<String, Object> other = new LinkedHashMap<>(stopped);
        other.put("asset", "P-102");

        sink.write(List.of(MongoDocument.upsert("u1", collection, running, List.of("line", "asset"))));
        sink.write(List.of(MongoDocument.upsert("u2", collection, stopped, List.of("line", "asset")),
                MongoDocument.upsert("u3", collection, other, List.of("line", "asset"))));
        sink.write(List.of(MongoDocument.upsert("u2", collection, stopped, List.of("line", "asset"))));

        List<Document> docs = stored(collection).find().into(new ArrayList<>());
        assertThat(docs).hasSize(2);
        Document p101 = stored(collection).find(new Document("asset", "P-101")).first();
        assertThat(p101).isNotNull();
        assertThat(p101.getString("state")).isEqualTo("stopped");
        assertThat(p101).doesNotContainKey("rpm");
        assertThat(p101.get("_id")).isNotEqualTo("u1").isNotEqualTo("u2");
    }

    @Test
    void aBatchSpanningCollectionsNamesRejectedDocumentsByTheirIndexInTheBatch() throws Exception {
        String other = collection + "b";
        stored(collection).createIndex(Indexes.ascending("serial"), new IndexOptions().unique(true));
        stored(other).createIndex(Indexes.ascending("serial"), new IndexOptions().unique(true));
        MongoDocument inOther = MongoDocument.insert("o1", other, Map.of("serial", "S-1"));
        MongoDocument badInOther = MongoDocument.insert("o2", other, Map.of("serial", "S-1"));
        List<MongoDocument> batch = List.of(reading("a", "S-1"), inOther, reading("b", "S-1"), reading("c", "S-3"),
                badInOther, MongoDocument.insert("o3", other, Map.of("serial", "S-3")));

        assertThatThrownBy(() -> sink.write(batch))
                .isInstanceOf(PermanentException.class)
                .satisfies(e -> assertThat(((PermanentException) e).rejected()).extracting(RejectedItem::index)
                        .containsExactly(2, 4));

        assertThat(ids(collection)).containsExactly("a", "c");
        assertThat(ids(other)).containsExactly("o1", "o3");
    }

    @Test
    void theProbeIsUpAgainstARunningServerAndWritesNothing() {
        assertThat(sink.probe().state()).isEqualTo(ConnectionState.UP);
        assertThat(sink.probe().lastError()).isEmpty();
        assertThat(reader.getDatabase(DATABASE).listCollectionNames().into(new ArrayList<>())).doesNotContain(collection);
    }

    @Test
    void writeConcernOneIsAcceptedAndTheSinkIsIdempotent() throws Exception {
        try (MongoSink w1 = new MongoSink("w1", MongoSinkConfig.of(mongo.connectionString(), DATABASE)
                .withWriteConcern("1"))) {
            w1.write(List.of(reading("w", "S-1")));
            assertThat(w1.idempotent()).isTrue();
        }
        assertThat(ids(collection)).containsExactly("w");
    }

    @Test
    void aClosedSinkRefusesToWriteAndProbesDown() {
        sink.close();
        sink.close();

        assertThatThrownBy(() -> sink.write(List.of(reading("a", "S-1")))).isInstanceOf(IllegalStateException.class);
        assertThat(sink.probe().state()).isEqualTo(ConnectionState.DOWN);
    }
}
