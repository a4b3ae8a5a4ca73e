package io.qubiq.sink.questdb;

import static org.awaitility.Awaitility.await;

import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import io.qubiq.testkit.sink.SinkContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sink contract against a real QuestDB (one server for the class). Each test writes a WAL table
 * of its own, created up front as the historian creates its tables, so that a row carrying text
 * for the {@code LONG} column {@code n} is a data error QuestDB rejects, not a new column. Item n is
 * stamped n milliseconds after a fixed instant, so the designated timestamp keeps write order.
 *
 * <p>QuestDB applies a WAL commit asynchronously: {@link #delivered} waits until the table's writer
 * has caught up with every committed transaction ({@code wal_tables()}), then reads; it never
 * guesses with a sleep, and an empty table is read at once.
 */
@ExtendWith(QuestDbExtension.class)
class QuestDbSinkContractTest extends SinkContract<QuestDbRow> {

    static QuestDbServer questDb;
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private String table;

    @BeforeEach
    void createTable() {
        table = "contract_" + TABLES.incrementAndGet();
        questDb.exec("CREATE TABLE " + table + " (n LONG, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY WAL");
    }

    @Override
    protected Sink<QuestDbRow> newSink() throws Exception {
        return new QuestDbSink("contract", QuestDbSinkConfig.of(questDb.ilpAddress()));
    }

    @Override
    protected Sink<QuestDbRow> newSinkToUnreachableDestination() throws Exception {
        return new QuestDbSink("contract", QuestDbSinkConfig.of("127.0.0.1:" + closedPort())
                .withRequestTimeoutMs(2_000));
    }

    @Override
    protected QuestDbRow item(int n) {
        return QuestDbRow.builder(table, T0.plusMillis(n)).column("n", (long) n).build();
    }

    @Override
    protected QuestDbRow poisonItem(int n) {
        return QuestDbRow.builder(table, T0.plusMillis(n)).column("n", "poison-" + n).build();
    }

    @Override
    protected List<Integer> delivered() {
        await().atMost(Duration.ofSeconds(15)).until(this::walApplied);
        return questDb.exec("select n from " + table + " order by ts").rows().stream()
                .map(row -> ((Number) row.get(0)).intValue()).toList();
    }

    /** Whether QuestDB has applied every transaction committed to the table's WAL (and is not stuck). */
    private boolean walApplied() {
        ExecResult wal = questDb.exec("select suspended, writerTxn, sequencerTxn from wal_tables() where name = '"
                + table + "'");
        if (Boolean.TRUE.equals(wal.value(0, "suspended"))) {
            throw new IllegalStateException("table " + table + " is suspended: " + wal.rowMaps());
        }
        return wal.value(0, "writerTxn").equals(wal.value(0, "sequencerTxn"));
    }

    @Override
    protected ItemCodec<QuestDbRow> codec() {
        return new QuestDbRowCodec();
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
