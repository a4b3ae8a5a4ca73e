package io.qubiq.sink.mongodb;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.testkit.mongo.MongoServerExtension;
import io.qubiq.testkit.mongo.MongoTestServer;
import io.qubiq.testkit.sink.SinkContract;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sink contract against a real MongoDB wire-protocol server. Each test writes a collection of
 * its own with a unique index on {@code serial}; the poison item repeats item 0's serial.
 */
@ExtendWith(MongoServerExtension.class)
class MongoSinkContractTest extends SinkContract<MongoDocument> {

    static MongoTestServer mongo;
    static MongoClient reader;
    private static final AtomicInteger TESTS = new AtomicInteger();
    private static final String DATABASE = "contract";
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
    void freshCollection() {
        collection = "contract" + TESTS.incrementAndGet();
        reader.getDatabase(DATABASE).getCollection(collection)
                .createIndex(Indexes.ascending("serial"), new IndexOptions().unique(true));
    }

    @Override
    protected Sink<MongoDocument> newSink() throws Exception {
        return new MongoSink("contract", MongoSinkConfig.of(mongo.connectionString(), DATABASE)
                .withTimeouts(5000, 5000, 10000));
    }

    @Override
    protected Sink<MongoDocument> newSinkToUnreachableDestination() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return new MongoSink("contract", MongoSinkConfig.of("mongodb://127.0.0.1:" + closedPort, DATABASE)
                .withTimeouts(1000, 1000, 5000));
    }

    private MongoDocument document(int n, String serial) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("n", n);
        fields.put("serial", serial);
        return MongoDocument.insert(collection + "-" + n, collection, fields);
    }

    @Override
    protected MongoDocument item(int n) {
        return document(n, "S" + n);
    }

    @Override
    protected MongoDocument poisonItem(int n) {
        return document(n, "S0");
    }

    @Override
    protected List<Integer> delivered() {
        List<Integer> numbers = new ArrayList<>();
        for (Document document : reader.getDatabase(DATABASE).getCollection(collection).find()) {
            numbers.add(document.getInteger("n"));
        }
        return numbers;
    }

    @Override
    protected ItemCodec<MongoDocument> codec() {
        return new MongoDocumentCodec();
    }
}
