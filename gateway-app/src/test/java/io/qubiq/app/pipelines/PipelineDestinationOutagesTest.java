package io.qubiq.app.pipelines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.testkit.mongo.MongoTestServer;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import io.qubiq.testkit.net.TcpProxy;
import io.qubiq.testkit.postgres.PostgresServer;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #8's promises for pipelines, against real servers: an outage of each kind of destination
 * during a pipeline run loses nothing and keeps order; at the byte limit the SQL channel refuses
 * with a clear error while the QuestDB channel drops its oldest items, counted; a row that violates
 * a constraint is quarantined while the rest of its batch arrives. One server of each kind for the
 * whole class; each test uses its own tables, collections and topics.
 */
class PipelineDestinationOutagesTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration PROBE = Duration.ofMillis(250);
    private static final int PER_PHASE = 100;
    private static final java.time.Instant START = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

    @TempDir
    static Path servers;

    @TempDir
    Path data;

    static PostgresServer postgres;
    static MongoTestServer mongo;
    static TestMqttBroker broker;
    static QuestDbServer questdb;

    private PipelineStack stack;

    @BeforeAll
    static void startServers() {
        postgres = PostgresServer.start(servers.resolve("postgres"));
        mongo = MongoTestServer.onFreePort().start();
        broker = TestMqttBroker.onFreePort().start();
        questdb = QuestDbServer.start(servers.resolve("questdb"));
    }

    @AfterAll
    static void stopServers() {
        for (AutoCloseable server : new AutoCloseable[] {questdb, broker, mongo, postgres}) {
            try {
                if (server != null) {
                    server.close();
                }
            } catch (Exception e) {
                // keep closing the others
            }
        }
    }

    @AfterEach
    void stopStack() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    private static String pipeline(String connection, String mapping) {
        return """
                pipelines:
                  p:
                    trigger: {tags: ["line/count"]}
                    outputs:
                      - connection: %s
                %s
                """.formatted(connection, mapping.indent(8).stripTrailing());
    }

    /**
     * Publishes the next {@link #PER_PHASE} counts, a little apart so they arrive as several deliveries,
     * with source times a millisecond apart (QuestDB's dedup keys need distinct timestamps).
     */
    private void publishPhase(int phase) throws InterruptedException {
        for (long i = phase * PER_PHASE + 1L; i <= (phase + 1L) * PER_PHASE; i++) {
            stack.publish("line/count", i, START.plusMillis(i));
            if (i % 10 == 0) {
                Thread.sleep(5);
            }
        }
        await().atMost(WAIT).until(() -> stack.pipeline("p").events() == (phase + 1L) * PER_PHASE);
    }

    /** Each value's first arrival comes after the first arrival of every smaller value. */
    private static boolean firstOccurrencesInOrder(List<Long> received) {
        long highest = 0;
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (long value : received) {
            if (seen.add(value)) {
                if (value != highest + 1) {
                    return false;
                }
                highest = value;
            }
        }
        return true;
    }

    private static List<Long> oneTo(int n) {
        return LongStream.rangeClosed(1, n).boxed().toList();
    }

    private void assertDrained(String connection) {
        await().atMost(WAIT).until(() -> stack.channel(connection).bufferedItems() == 0);
        ChannelStatus status = stack.channel(connection);
        assertThat(status.itemsDropped()).isZero();
        assertThat(status.itemsQuarantined()).isZero();
        assertThat(stack.pipeline("p").refused()).isZero();
    }

    @Test
    void aPostgresOutageDuringAPipelineRunLosesNothingAndKeepsOrder() throws Exception {
        postgres.execute("CREATE TABLE outage_counts (id bigserial PRIMARY KEY, item_id text UNIQUE, count bigint)");
        stack = new PipelineStack("""
                outbound:
                  db:
                    sql: {jdbc_url: "%s", username: postgres, idempotent: true, connection_timeout_ms: 1000}
                """.formatted(postgres.jdbcUrl()) + pipeline("db", """
                sql:
                  statement: "INSERT INTO outage_counts (item_id, count) VALUES (:item_id, :count) ON CONFLICT (item_id) DO NOTHING"
                  parameters: {count: "value"}
                """), data, PROBE).start();

        publishPhase(0);
        postgres.stop();
        publishPhase(1);
        // handed off first, buffered once the forwarder meets the outage
        await().atMost(WAIT).until(() -> stack.channel("db").bufferedItems() > 0);
        postgres.restart();
        publishPhase(2);

        await().atMost(WAIT).until(() -> postgres.queryLong("SELECT count(*) FROM outage_counts") == 3 * PER_PHASE);
        List<Long> counts = postgres.query("SELECT count FROM outage_counts ORDER BY id").stream()
                .map(row -> ((Number) row.get(0)).longValue()).toList();
        assertThat(counts).containsExactlyElementsOf(oneTo(3 * PER_PHASE));
        assertDrained("db");
    }

    @Test
    void aMongoOutageDuringAPipelineRunLosesNothingAndKeepsOrder() throws Exception {
        stack = new PipelineStack("""
                outbound:
                  docs:
                    mongodb: {connection_string: "%s", database: plant, server_selection_timeout_ms: 500}
                """.formatted(mongo.connectionString()) + pipeline("docs", """
                mongodb:
                  collection: outage_counts
                  document: {count: "value"}
                """), data, PROBE).start();

        publishPhase(0);
        mongo.stop();
        publishPhase(1);
        // handed off first, buffered once the forwarder meets the outage
        await().atMost(WAIT).until(() -> stack.channel("docs").bufferedItems() > 0);
        mongo.start();
        publishPhase(2);

        try (MongoClient client = MongoClients.create(mongo.connectionString())) {
            var collection = client.getDatabase("plant").getCollection("outage_counts");
            await().atMost(WAIT).until(() -> collection.countDocuments() == 3 * PER_PHASE);
            List<Long> counts = new ArrayList<>();
            collection.find().forEach((Document doc) -> counts.add(((Number) doc.get("count")).longValue()));
            assertThat(counts).containsExactlyElementsOf(oneTo(3 * PER_PHASE));
        }
        assertDrained("docs");
    }

    @Test
    void anMqttBrokerOutageDuringAPipelineRunLosesNothingAndKeepsOrder() throws Exception {
        // The gateway reaches the broker through a proxy that the test cuts; the test's subscriber stays
        // connected to the broker itself, so it sees every message the gateway delivers.
        List<Long> received = new CopyOnWriteArrayList<>();
        Mqtt5BlockingClient subscriber = MqttClient.builder().useMqttVersion5().identifier("outage-subscriber")
                .serverHost(broker.host()).serverPort(broker.port()).buildBlocking();
        subscriber.connect();
        subscriber.toAsync().subscribeWith().topicFilter("outage/count").qos(MqttQos.AT_LEAST_ONCE)
                .callback(publish -> received.add(Long.parseLong(new String(publish.getPayloadAsBytes(),
                        StandardCharsets.UTF_8))))
                .send().join();
        try (TcpProxy proxy = TcpProxy.to(broker.host(), broker.port())) {
            stack = new PipelineStack("""
                    outbound:
                      broker:
                        mqtt: {host: "%s", port: %d, connect_timeout_ms: 1000}
                    """.formatted(proxy.host(), proxy.port()) + pipeline("broker", """
                    mqtt: {topic: "outage/count", payload: "value", qos: 1}
                    """), data, PROBE).start();

            publishPhase(0);
            proxy.reset();
            publishPhase(1);
            // handed off first, buffered once the forwarder meets the outage
            await().atMost(WAIT).until(() -> stack.channel("broker").bufferedItems() > 0);
            proxy.forward();
            publishPhase(2);

            await().atMost(WAIT).until(() -> received.stream().distinct().count() >= 3 * PER_PHASE);
            // QoS 1 is at least once: a batch in flight when the connection was cut may arrive twice
            assertThat(received.stream().distinct().toList()).as("every count, in order")
                    .containsExactlyElementsOf(oneTo(3 * PER_PHASE));
            assertThat(firstOccurrencesInOrder(received)).isTrue();
            assertDrained("broker");
        } finally {
            subscriber.disconnect();
        }
    }

    @Test
    void aQuestDbOutageDuringAPipelineRunLosesNothingAndKeepsOrder() throws Exception {
        questdb.exec("CREATE TABLE outage_counts (line SYMBOL, count LONG, ts TIMESTAMP) TIMESTAMP(ts)"
                + " PARTITION BY DAY WAL DEDUP UPSERT KEYS(ts, line)");
        stack = new PipelineStack("""
                outbound:
                  lake:
                    questdb: {address: "%s", idempotent: true, request_timeout_ms: 3000}
                """.formatted(questdb.ilpAddress()) + pipeline("lake", """
                questdb:
                  table: outage_counts
                  timestamp: "source_time"
                  symbols: {line: "'line1'"}
                  columns: {count: "value"}
                """), data, PROBE).start();

        publishPhase(0);
        questdb.stop();
        publishPhase(1);
        // handed off first, buffered once the forwarder meets the outage
        await().atMost(WAIT).until(() -> stack.channel("lake").bufferedItems() > 0);
        questdb.restart();
        publishPhase(2);

        await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> ((Number) questdb.exec("SELECT count() n FROM outage_counts").value(0, "n")).longValue()
                        == 3 * PER_PHASE);
        List<Long> counts = new ArrayList<>();
        var rows = questdb.exec("SELECT count FROM outage_counts ORDER BY ts");
        for (int i = 0; i < rows.size(); i++) {
            counts.add(((Number) rows.value(i, "count")).longValue());
        }
        assertThat(counts).containsExactlyElementsOf(oneTo(3 * PER_PHASE));
        assertDrained("lake");
    }

    @Test
    void atTheByteLimitTheSqlChannelRefusesWithAClearErrorWhileTheQuestDbChannelDropsItsOldestCounted()
            throws Exception {
        try (TcpProxy deadDb = TcpProxy.to("127.0.0.1", postgres.port());
             TcpProxy deadLake = TcpProxy.to("127.0.0.1", questdb.httpPort())) {
            deadDb.reset();
            deadLake.reset();
            String limits = "store_and_forward: {max_bytes: 1048576, segment_bytes: 65536}";
            stack = new PipelineStack("""
                    outbound:
                      db:
                        sql: {jdbc_url: "jdbc:postgresql://127.0.0.1:%d/postgres", username: postgres, connection_timeout_ms: 500}
                        %s
                      lake:
                        questdb: {address: "127.0.0.1:%d"}
                        %s
                    pipelines:
                      p:
                        trigger: {tags: ["line/count"]}
                        outputs:
                          - connection: db
                            sql:
                              statement: "INSERT INTO never (count, note) VALUES (:count, :note)"
                              parameters: {count: "value", note: "'a note long enough to fill a buffer at a useful pace'"}
                          - connection: lake
                            questdb:
                              table: never
                              symbols: {note: "'a note long enough to fill a buffer at a useful pace'"}
                              columns: {count: "value"}
                    """.formatted(deadDb.port(), limits, deadLake.port(), limits), data, PROBE).start();

            int published = 30_000;
            for (long i = 1; i <= published; i++) {
                stack.publish("line/count", i);
            }
            await().atMost(WAIT).until(() -> stack.pipeline("p").events() == published);

            var pipeline = stack.pipeline("p");
            assertThat(pipeline.refused()).as("SQL items refused at the limit").isPositive();
            assertThat(pipeline.lastError()).get().asString()
                    .contains("'db'").contains("is full").contains("refuses new writes");
            assertThat(pipeline.outputs().get(0).refused()).isEqualTo(pipeline.refused());
            ChannelStatus db = stack.channel("db");
            assertThat(db.itemsDropped()).as("the SQL channel keeps its backlog").isZero();
            assertThat(db.itemsIn() + pipeline.refused()).as("every item accepted or refused").isEqualTo(published);
            // what was handed off before the destination was found down reaches the buffer too, not only memory
            await().atMost(WAIT).until(() -> stack.channel("db").bufferedItems() + pipeline.refused() == published);
            ChannelStatus lake = stack.channel("lake");
            assertThat(pipeline.outputs().get(1).refused()).isZero();
            assertThat(lake.itemsDropped()).as("the QuestDB channel drops its oldest, counted").isPositive();
            assertThat(lake.itemsIn()).as("drop-oldest accepts every item").isEqualTo(published);
            await().atMost(WAIT).until(() -> stack.channel("lake").bufferedItems() + stack.channel("lake").itemsDropped()
                    == published);
            assertThat(lake.pressureAlarm()).isTrue();
        }
    }

    @Test
    void aRowThatViolatesAConstraintIsQuarantinedWhileTheRestOfItsBatchArrives() throws Exception {
        postgres.execute("CREATE TABLE checked_counts (id bigserial PRIMARY KEY, count bigint CHECK (count >= 0))");
        stack = new PipelineStack("""
                outbound:
                  db:
                    sql: {jdbc_url: "%s", username: postgres}
                    store_and_forward: {fast_path: false, linger_ms: 200}
                """.formatted(postgres.jdbcUrl()) + pipeline("db", """
                sql:
                  statement: "INSERT INTO checked_counts (count) VALUES (:count)"
                  parameters: {count: "value"}
                """), data, PROBE).start();

        for (long value : new long[] {1, 2, -3, 4, 5}) {
            stack.publish("line/count", value);
        }

        await().atMost(WAIT).until(() -> stack.channel("db").itemsQuarantined() == 1
                && stack.channel("db").itemsDelivered() == 4);
        List<Long> counts = postgres.query("SELECT count FROM checked_counts ORDER BY id").stream()
                .map(row -> ((Number) row.get(0)).longValue()).toList();
        assertThat(counts).containsExactly(1L, 2L, 4L, 5L);
        var quarantined = stack.channelOf("db").quarantine().list(0, 10, java.util.Optional.empty());
        assertThat(quarantined.toString()).contains("check");
    }
}
