package io.qubiq.sink.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.testkit.mongo.MongoServerExtension;
import io.qubiq.testkit.mongo.MongoTestServer;
import io.qubiq.testkit.net.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Real network failures, classified: the server stopped (and restarted on the same port with its
 * data), a connection reset, and a reply that never comes (a proxy that black-holes replies after
 * the write reached the server).
 */
@ExtendWith(MongoServerExtension.class)
class MongoSinkOutageTest {

    static MongoTestServer mongo;
    private static final AtomicInteger TESTS = new AtomicInteger();
    private static final String DATABASE = "outage";
    private final List<AutoCloseable> closeAfter = new ArrayList<>();
    private String collection;

    @BeforeEach
    void name() {
        collection = "events" + TESTS.incrementAndGet();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : closeAfter) {
            c.close();
        }
    }

    private <C extends AutoCloseable> C closing(C closeable) {
        closeAfter.add(closeable);
        return closeable;
    }

    private MongoSink sink(String connectionString, long selectionTimeoutMs, long socketTimeoutMs) throws Exception {
        return closing(new MongoSink("outage", MongoSinkConfig.of(connectionString, DATABASE)
                .withTimeouts(selectionTimeoutMs, 5000, socketTimeoutMs)));
    }

    private List<MongoDocument> batch(int from, int count) {
        return IntStream.range(from, from + count)
                .mapToObj(i -> MongoDocument.insert(collection + "-" + i, collection, Map.of("n", i))).toList();
    }

    /** The numbers stored, read directly from the server (never through the proxy). */
    private List<Integer> stored() {
        try (MongoClient reader = MongoClients.create(mongo.connectionString())) {
            List<Integer> numbers = new ArrayList<>();
            for (Document d : reader.getDatabase(DATABASE).getCollection(collection).find()) {
                numbers.add(d.getInteger("n"));
            }
            return numbers;
        }
    }

    /**
     * Writes until the sink succeeds, as the channel would retry it (the writes are keyed, so a
     * replay is harmless). Also primes the connections before a fault is injected: on a loaded
     * machine the first handshake can outlast a short timeout.
     */
    private static void writeEventually(MongoSink sink, List<MongoDocument> batch) {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptionsMatching(e -> e instanceof TransientException
                        || e instanceof UnknownOutcomeException)
                .untilAsserted(() -> sink.write(batch));
    }

    @Test
    void aStoppedServerIsTransientAndProbesDownAndTheBatchLandsAfterTheRestartWithTheOldData() throws Exception {
        MongoSink sink = sink(mongo.connectionString(), 2000, 5000);
        writeEventually(sink, batch(0, 10));

        mongo.stop();
        assertThatThrownBy(() -> sink.write(batch(10, 10))).isInstanceOf(TransientException.class);
        assertThat(sink.probe().state()).isEqualTo(ConnectionState.DOWN);

        mongo.start();
        writeEventually(sink, batch(10, 10));

        assertThat(stored()).containsExactlyElementsOf(IntStream.range(0, 20).boxed().toList());
        assertThat(sink.probe().state()).isEqualTo(ConnectionState.UP);
    }

    @Test
    void aResetConnectionIsTransientAndTheServerNeverSawTheWrite() throws Exception {
        TcpProxy proxy = closing(TcpProxy.to(mongo.host(), mongo.port()));
        MongoSink sink = sink("mongodb://" + proxy.host() + ":" + proxy.port(), 5000, 5000);
        writeEventually(sink, batch(0, 5));

        proxy.reset();
        assertThatThrownBy(() -> sink.write(batch(5, 5))).isInstanceOf(TransientException.class);
        assertThat(stored()).containsExactly(0, 1, 2, 3, 4);

        proxy.forward();
        writeEventually(sink, batch(5, 5));
        assertThat(stored()).containsExactlyElementsOf(IntStream.range(0, 10).boxed().toList());
    }

    @Test
    void aReplyThatNeverComesIsAnUnknownOutcomeAndTheWriteMayHaveLanded() throws Exception {
        TcpProxy proxy = closing(TcpProxy.to(mongo.host(), mongo.port()));
        MongoSink sink = sink("mongodb://" + proxy.host() + ":" + proxy.port(), 5000, 500);
        writeEventually(sink, batch(0, 5));

        proxy.blackHole();
        assertThatThrownBy(() -> sink.write(batch(5, 5)))
                .isInstanceOf(UnknownOutcomeException.class)
                .hasMessageContaining("socket_timeout_ms");

        // The request reached the server: the write happened although the sink could not know.
        await().atMost(Duration.ofSeconds(5)).until(() -> stored().size() == 10);
        assertThat(proxy.discardedBytes()).isPositive();

        // Replaying it (the channel does, the sink being idempotent) stores nothing twice.
        proxy.forward();
        writeEventually(sink, batch(5, 5));
        assertThat(stored()).containsExactlyElementsOf(IntStream.range(0, 10).boxed().toList());
    }
}
