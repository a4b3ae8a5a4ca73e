package io.qubiq.sink.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.core.error.FailureClass;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.Quarantine;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.mongo.MongoServerExtension;
import io.qubiq.testkit.mongo.MongoTestServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sink inside a real store-and-forward channel (segmented disk buffer, file quarantine, policy
 * refuse as for every MongoDB connection), against a real server that rejects documents and goes
 * away.
 */
@ExtendWith(MongoServerExtension.class)
class MongoSinkChannelTest {

    static MongoTestServer mongo;
    static MongoClient reader;
    private static final AtomicInteger TESTS = new AtomicInteger();
    private static final String DATABASE = "channel";

    @TempDir
    Path dir;

    private String collection;
    private StoreForwardChannel<MongoDocument> channel;
    private final RecordingEvents events = new RecordingEvents();

    @BeforeAll
    static void connect() {
        reader = MongoClients.create(mongo.connectionString());
    }

    @AfterAll
    static void disconnect() {
        reader.close();
    }

    @BeforeEach
    void name() {
        collection = "samples" + TESTS.incrementAndGet();
    }

    @AfterEach
    void stopChannel() throws Exception {
        if (channel != null) {
            channel.stop();
        }
    }

    private StoreForwardChannel<MongoDocument> startChannel(boolean fastPath) throws Exception {
        MongoSink sink = new MongoSinkFactory().create("mongo",
                MongoSinkConfig.of(mongo.connectionString(), DATABASE).withTimeouts(2000, 5000, 10000));
        ChannelConfig config = ChannelConfig.defaults().withSegmentBytes(1 << 20).withMaxBytes(16 << 20)
                .withBatch(100, 5).withBackoff(50, 500).withFastPath(fastPath);
        channel = new StoreForwardChannel<>("mongo", config, OverflowPolicy.REFUSE, dir.resolve("buffer"),
                SegmentedDiskBuffer::open, maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes),
                sink, new MongoSinkFactory().codec(), Liveness.alwaysUnknown(), events, Clock.systemUTC());
        channel.start();
        return channel;
    }

    private MongoCollection<Document> stored() {
        return reader.getDatabase(DATABASE).getCollection(collection);
    }

    private List<Integer> storedNumbers() {
        List<Integer> numbers = new ArrayList<>();
        stored().find().forEach(d -> numbers.add(d.getInteger("seq")));
        return numbers;
    }

    private MongoDocument sample(int seq, String serial) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("seq", seq);
        fields.put("serial", serial);
        return MongoDocument.insert(collection + "-" + seq, collection, fields);
    }

    private List<MongoDocument> samples(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(i -> sample(i, "S" + i)).toList();
    }

    @ParameterizedTest(name = "fast path {0}")
    @ValueSource(booleans = {true, false})
    void aDocumentThatViolatesAUniqueIndexLandsInQuarantineWhileTheRestOfItsBatchArrives(boolean fastPath)
            throws Exception {
        stored().createIndex(Indexes.ascending("serial"), new IndexOptions().unique(true));
        stored().insertOne(new Document("_id", "existing").append("seq", -1).append("serial", "S-taken"));
        startChannel(fastPath);

        channel.submit(List.of(sample(0, "S0"), sample(1, "S1"), sample(2, "S-taken"), sample(3, "S3"),
                sample(4, "S4")));

        Quarantine<MongoDocument> quarantine = channel.quarantine();
        await().atMost(Duration.ofSeconds(20)).until(() -> quarantine.size() == 1);
        assertThat(storedNumbers()).containsExactlyInAnyOrder(-1, 0, 1, 3, 4);
        QuarantineEntry entry = quarantine.list(0, 10, Optional.empty()).entries().get(0);
        assertThat(entry.failureClass()).isEqualTo(FailureClass.PERMANENT);
        assertThat(entry.reason()).contains("11000").contains("serial");
        assertThat(quarantine.get(entry.id()).orElseThrow().preview())
                .isEqualTo(collection + " insert {_id: \"" + collection + "-2\", seq: 2, serial: \"S-taken\"}");

        // the channel is not stuck behind it
        channel.submit(samples(5, 3));
        await().atMost(Duration.ofSeconds(20)).until(() -> storedNumbers().size() == 8);
        ChannelStatus status = channel.status();
        assertThat(status.itemsQuarantined()).isEqualTo(1);
        assertThat(status.itemsDelivered()).isEqualTo(7);
        assertThat(status.bufferedItems()).isZero();
    }

    @Test
    void theServerStoppedMidStreamAndRestartedLosesNothingAndKeepsTheOrder() throws Exception {
        int batches = 100;
        int perBatch = 20;
        startChannel(true);
        Semaphore permits = new Semaphore(0);
        AtomicInteger submitted = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                for (int b = 0; b < batches; b++) {
                    permits.acquire();
                    channel.submit(samples(b * perBatch, perBatch));
                    submitted.incrementAndGet();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "producer");
        producer.start();

        permits.release(30);
        await().atMost(Duration.ofSeconds(20)).until(() -> stored().countDocuments() == 30L * perBatch);

        permits.release(40); // the producer is writing while the server goes away
        mongo.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> submitted.get() == 70);
        // handed-off batches reach the buffer once the forwarder meets the outage
        await().atMost(Duration.ofSeconds(30)).until(() -> channel.status().bufferedItems() > 0);
        // the forwarder has tried the backlog against the stopped server and backs off
        await().atMost(Duration.ofSeconds(30)).until(() -> channel.status().state() == ChannelState.BACKING_OFF);
        assertThat(channel.status().lastError()).isPresent();

        mongo.start();
        permits.release(30);
        producer.join(Duration.ofSeconds(60).toMillis());
        assertThat(failure.get()).isNull();
        await().atMost(Duration.ofSeconds(60))
                .until(() -> channel.status().bufferedItems() == 0 && stored().countDocuments() == batches * perBatch);

        assertThat(storedNumbers()).containsExactlyElementsOf(IntStream.range(0, batches * perBatch).boxed().toList());
        ChannelStatus status = channel.status();
        assertThat(status.itemsQuarantined()).isZero();
        assertThat(status.itemsDropped()).isZero();
        assertThat(status.itemsDelivered()).isEqualTo(batches * perBatch);
    }
}
