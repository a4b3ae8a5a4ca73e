package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.core.error.FailureClass;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.ChannelFullException;
import io.qubiq.storeforward.ChannelStatus;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.postgres.PostgresExtension;
import io.qubiq.testkit.postgres.PostgresServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL sink inside a real store-and-forward channel (disk buffer, file quarantine, overflow
 * policy refuse, as for every SQL connection) against a real PostgreSQL that is stopped, killed and
 * restarted: DESIGN.md rules 2, 3, 4 and 5 as an operator would see them in the table.
 */
@ExtendWith(PostgresExtension.class)
class SqlChannelTest {

    static PostgresServer postgres;
    private static final AtomicInteger TABLES = new AtomicInteger();

    @TempDir
    Path dir;

    private String table;
    private String insert;
    private SqlSink sink;
    private StoreForwardChannel<SqlRow> channel;

    @BeforeEach
    void createTable() {
        if (!postgres.isRunning()) {
            postgres.restart();
        }
        table = "chan_" + TABLES.incrementAndGet();
        postgres.execute("CREATE TABLE " + table + " (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                + " n int NOT NULL CHECK (n >= 0), pad text, item_id text UNIQUE)");
        insert = "INSERT INTO " + table + " (n, pad, item_id) VALUES (:n, :pad, :item_id)"
                + " ON CONFLICT (item_id) DO NOTHING";
    }

    @AfterEach
    void stop() throws Exception {
        if (channel != null) {
            channel.stop();
        }
        if (sink != null) {
            sink.close();
        }
        if (!postgres.isRunning()) {
            postgres.restart();
        }
    }

    private static ChannelConfig fastConfig() {
        return ChannelConfig.defaults()
                .withMaxBytes(4L << 20)
                .withSegmentBytes(256 * 1024)
                .withBatch(50, 0)
                .withBackoff(5, 200);
    }

    private StoreForwardChannel<SqlRow> start(ChannelConfig config, SqlSinkConfig sinkConfig) throws Exception {
        sink = new SqlSink("plant-db", sinkConfig);
        channel = new StoreForwardChannel<>("plant-db", config, OverflowPolicy.REFUSE, dir.resolve("buffer"),
                SegmentedDiskBuffer::open, maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes),
                sink, new SqlRowCodec(), Liveness.alwaysUnknown(), new RecordingEvents(), Clock.systemUTC());
        channel.start();
        return channel;
    }

    private static SqlSinkConfig idempotentSink() {
        return SqlSinkContractTest.config(postgres).withIdempotent(true).withStatementTimeoutMs(60_000);
    }

    private SqlRow row(int n, String pad) {
        return row(n, pad, insert);
    }

    private static SqlRow row(int n, String pad, String statement) {
        return new SqlRow("item-" + n, statement, Map.of("n", n, "pad", pad));
    }

    private List<SqlRow> rows(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(n -> row(n, "")).toList();
    }

    private List<Integer> arrived() {
        return postgres.query("SELECT n FROM " + table + " ORDER BY seq").stream()
                .map(r -> ((Number) r.get(0)).intValue()).toList();
    }

    private long count() {
        return postgres.queryLong("SELECT count(*) FROM " + table);
    }

    @Test
    void aRowThatViolatesAConstraintLandsInQuarantineWhileTheRestOfItsBatchArrives() throws Exception {
        start(fastConfig(), idempotentSink());
        List<SqlRow> batch = new ArrayList<>(rows(0, 20));
        batch.set(7, new SqlRow("item-7", insert, Map.of("n", -7, "pad", "poison")));

        channel.submit(batch);

        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 19 && channel.quarantine().size() == 1);
        assertThat(arrived()).containsExactlyElementsOf(IntStream.range(0, 20).filter(n -> n != 7).boxed().toList());
        QuarantineEntry entry = channel.quarantine().list(0, 10, Optional.empty()).entries().get(0);
        assertThat(entry.failureClass()).isEqualTo(FailureClass.PERMANENT);
        assertThat(entry.reason()).startsWith("[23514]").contains("check constraint");
        assertThat(channel.quarantine().get(entry.id()).orElseThrow().preview())
                .contains("INSERT INTO " + table).contains("item_id='item-7'").contains("n=-7");
        ChannelStatus status = channel.status();
        assertThat(status.itemsDelivered()).isEqualTo(19);
        assertThat(status.itemsQuarantined()).isEqualTo(1);
        assertThat(status.bufferedItems()).isZero();
    }

    @Test
    void postgresStoppedMidStreamAndRestartedLosesNothingAndKeepsOrder() throws Exception {
        start(fastConfig(), idempotentSink());
        int total = 6000;
        AtomicInteger submitted = new AtomicInteger();
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
            try {
                for (int n = 0; n < total; n += 20) {
                    channel.submit(rows(n, 20));
                    submitted.addAndGet(20);
                    LockSupport.parkNanos(1_000_000);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(60)).until(() -> count() >= 1000);

        postgres.stop();
        int atStop = submitted.get();
        await().atMost(Duration.ofSeconds(60)).until(() -> submitted.get() >= Math.min(total, atStop + 1000));
        assertThat(channel.status().bufferedItems()).as("rows written while PostgreSQL was down are buffered")
                .isPositive();
        postgres.restart();
        producer.get(60, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(90)).until(() -> count() == total && channel.status().bufferedItems() == 0);
        assertThat(arrived()).containsExactlyElementsOf(IntStream.range(0, total).boxed().toList());
        assertThat(channel.quarantine().size()).isZero();
    }

    @Test
    void atTheByteLimitTheSqlChannelRefusesNewWritesWithAClearErrorAndKeepsItsBacklog() throws Exception {
        start(fastConfig().withMaxBytes(1 << 20), SqlSinkContractTest.config(postgres));
        postgres.stop();
        String kb = "x".repeat(1000);

        assertThatThrownBy(() -> {
            for (int n = 0; n < 5000; n++) {
                channel.submit(List.of(row(n, kb)));
            }
        }).isInstanceOf(ChannelFullException.class)
                .hasMessageContaining("store-and-forward buffer of 'plant-db' is full");
        long kept = channel.status().bufferedItems();
        assertThat(kept).isGreaterThan(500);
        assertThatThrownBy(() -> channel.submit(List.of(row(99_999, kb)))).isInstanceOf(ChannelFullException.class);
        assertThat(channel.status().bufferedItems()).isEqualTo(kept);
        assertThat(channel.status().itemsDropped()).isZero();

        postgres.restart();

        await().atMost(Duration.ofSeconds(60)).until(() -> count() == kept);
        assertThat(arrived()).containsExactlyElementsOf(IntStream.range(0, (int) kept).boxed().toList());
        channel.submit(List.of(row(100_000, "after")));
        await().atMost(Duration.ofSeconds(30)).until(() -> count() == kept + 1);
    }

    @Test
    void postgresKilledMidBatchAndRestartedGetsEveryRowExactlyOnceFromAnIdempotentChannel() throws Exception {
        String slow = "INSERT INTO " + table + " (n, pad, item_id) SELECT :n, :pad, :item_id FROM pg_sleep(0.005)"
                + " ON CONFLICT (item_id) DO NOTHING";
        start(fastConfig().withFastPath(false).withBatch(100, 0), idempotentSink());
        int total = 1500;
        for (int n = 0; n < total; n += 100) {
            List<SqlRow> batch = new ArrayList<>();
            for (int i = n; i < n + 100; i++) {
                batch.add(row(i, "", slow));
            }
            channel.submit(batch);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> count() >= 200 && postgres.queryLong("SELECT count(*)"
                + " FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'INSERT INTO " + table + "%'") > 0);

        postgres.kill();
        long beforeRestart = channel.status().bufferedItems();
        postgres.restart();

        assertThat(beforeRestart).as("the killed batch is still buffered").isPositive();
        await().atMost(Duration.ofSeconds(120)).until(() -> channel.status().bufferedItems() == 0);
        assertThat(count()).isEqualTo(total);
        assertThat(postgres.queryLong("SELECT count(DISTINCT n) FROM " + table)).isEqualTo(total);
        assertThat(postgres.queryLong("SELECT min(n) + max(n) FROM " + table)).isEqualTo(total - 1);
        assertThat(channel.quarantine().size()).isZero();
        assertThat(channel.status().lastError()).as("the kill was seen as a failed delivery").isPresent();
    }
}
