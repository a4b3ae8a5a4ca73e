package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.storeforward.ChannelConfig;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.postgres.PostgresExtension;
import io.qubiq.testkit.postgres.PostgresServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 item 7 against a real PostgreSQL: every row costs {@code row_ms} in a trigger
 * ({@code pg_sleep}), so a full batch needs longer than {@code statement_timeout_ms} and the server
 * cancels it (57014, a timeout with unknown outcome). The channel writes fewer rows at a time and
 * drains in order instead of retrying the same batch forever.
 *
 * <p>CI runs a small slice (about 15 s); {@code scripts/slow-destination} runs the figures
 * (50 ms a row, a 1 s timeout, batches of 500) through the same test with system properties.
 */
@ExtendWith(PostgresExtension.class)
class SqlSlowDestinationTest {

    static PostgresServer postgres;

    @TempDir
    Path dir;

    private static int property(String name, int fallback) {
        return Integer.getInteger("qubiq.slow." + name, fallback);
    }

    // Catches: an idempotent channel retrying the same cancelled batch forever (4 of 3,697 items in three minutes).
    @Test
    void aChannelWhoseBatchesOutlastTheStatementTimeoutStillDrainsEveryRowInOrder() throws Exception {
        int rows = property("rows", 150);
        int batch = property("batch", 100);
        int rowMs = property("row_ms", 50);
        int timeoutMs = property("timeout_ms", 1_000);
        postgres.execute("CREATE TABLE slow_rows (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                        + " n int NOT NULL, item_id text UNIQUE)",
                "CREATE FUNCTION slow_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep("
                        + rowMs / 1000.0 + "); RETURN NEW; END $$",
                "CREATE TRIGGER slow_row BEFORE INSERT ON slow_rows FOR EACH ROW EXECUTE FUNCTION slow_row()");
        String insert = "INSERT INTO slow_rows (n, item_id) VALUES (:n, :item_id) ON CONFLICT (item_id) DO NOTHING";
        SqlSink sink = new SqlSink("plant-db", SqlSinkContractTest.config(postgres).withIdempotent(true)
                .withStatementTimeoutMs(timeoutMs));
        StoreForwardChannel<SqlRow> channel = new StoreForwardChannel<>("plant-db", ChannelConfig.defaults()
                .withMaxBytes(16L << 20).withSegmentBytes(1 << 20).withBatch(batch, 0).withBackoff(5, 200),
                OverflowPolicy.REFUSE, dir.resolve("buffer"), SegmentedDiskBuffer::open,
                maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes), sink, new SqlRowCodec(),
                Liveness.alwaysUnknown(), new RecordingEvents(), Clock.systemUTC());
        channel.start();
        try {
            List<SqlRow> all = IntStream.range(0, rows)
                    .mapToObj(n -> new SqlRow("item-" + n, insert, Map.of("n", n))).toList();
            for (int from = 0; from < rows; from += batch) {
                channel.submit(all.subList(from, Math.min(rows, from + batch)));
            }
            long fullBatchMs = (long) batch * rowMs;
            assertThat(fullBatchMs).as("the test needs batches slower than the timeout").isGreaterThan(timeoutMs);

            Duration budget = Duration.ofMillis(20_000 + 3L * rows * rowMs);
            await().atMost(budget).pollInterval(Duration.ofMillis(200))
                    .until(() -> postgres.queryLong("SELECT count(*) FROM slow_rows") == rows);

            List<Integer> arrived = postgres.query("SELECT n FROM slow_rows ORDER BY seq").stream()
                    .map(r -> ((Number) r.get(0)).intValue()).toList();
            assertThat(arrived).containsExactlyElementsOf(IntStream.range(0, rows).boxed().toList());
            assertThat(channel.quarantine().size()).isZero();
            assertThat(channel.status().lastError()).hasValueSatisfying(error -> assertThat(error)
                    .contains("57014"));
        } finally {
            channel.stop();
            sink.close();
        }
    }
}
