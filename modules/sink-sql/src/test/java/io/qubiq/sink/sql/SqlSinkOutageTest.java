package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.testkit.postgres.PostgresExtension;
import io.qubiq.testkit.postgres.PostgresServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sink across a PostgreSQL that is down, stopped mid-batch, or killed with SIGKILL mid-batch. */
@ExtendWith(PostgresExtension.class)
class SqlSinkOutageTest {

    static PostgresServer postgres;

    /** About 5 s of server time for 500 rows: long enough to be caught in the middle. */
    private static final String SLOW_INSERT =
            "INSERT INTO outage (n, item_id) SELECT :n, :item_id FROM pg_sleep(0.01)";
    private static final String INSERT = "INSERT INTO outage (n, item_id) VALUES (:n, :item_id)";

    @BeforeAll
    static void createTable() {
        postgres.execute("CREATE TABLE outage (n int PRIMARY KEY, item_id text UNIQUE)");
    }

    @AfterEach
    void serverRunsForTheNextTest() {
        if (!postgres.isRunning()) {
            postgres.restart();
        }
    }

    private static SqlSink sink() throws Exception {
        return new SqlSink("sql", SqlSinkContractTest.config(postgres).withStatementTimeoutMs(60_000));
    }

    private static List<SqlRow> rows(String statement, int from, int count) {
        return IntStream.range(from, from + count)
                .mapToObj(n -> new SqlRow("item-" + n, statement, Map.of("n", n))).toList();
    }

    private static long countBetween(int from, int to) {
        return postgres.queryLong("SELECT count(*) FROM outage WHERE n >= " + from + " AND n < " + to);
    }

    private static void awaitSlowBatchRunning() {
        await().atMost(Duration.ofSeconds(20)).until(() -> postgres.queryLong("SELECT count(*) FROM pg_stat_activity"
                + " WHERE state = 'active' AND query LIKE 'INSERT INTO outage%pg_sleep%'") > 0);
    }

    @Test
    void theSinkExistsWhileTheDatabaseIsDownIsTransientAndWritesOnceItIsBack() throws Exception {
        postgres.stop();
        try (SqlSink sink = sink()) {
            Throwable thrown = catchThrowable(() -> sink.write(rows(INSERT, 0, 3)));

            assertThat(thrown).isInstanceOf(TransientException.class).hasMessageContaining("database unreachable");
            ConnectionStatus down = sink.probe();
            assertThat(down.state()).isEqualTo(ConnectionState.DOWN);
            assertThat(down.lastError()).get().asString().contains("refused");

            postgres.restart();

            assertThat(sink.probe().state()).isEqualTo(ConnectionState.UP);
            sink.write(rows(INSERT, 0, 3));
            assertThat(countBetween(0, 3)).isEqualTo(3);
        }
    }

    @Test
    void aServerKilledMidBatchIsNeverPermanentCommitsNothingOfItAndTheSinkRecoversAfterRestart() throws Exception {
        try (SqlSink sink = sink()) {
            sink.write(rows(INSERT, 1000, 2));
            CompletableFuture<Throwable> write = CompletableFuture.supplyAsync(
                    () -> catchThrowable(() -> sink.write(rows(SLOW_INSERT, 1100, 500))));
            awaitSlowBatchRunning();

            postgres.kill();

            Throwable thrown = write.get(60, TimeUnit.SECONDS);
            assertThat(thrown).isNotInstanceOf(PermanentException.class)
                    .isInstanceOfAny(TransientException.class, UnknownOutcomeException.class);
            assertThat(sink.probe().state()).isEqualTo(ConnectionState.DOWN);

            postgres.restart();

            assertThat(countBetween(1100, 1600)).as("the transaction was never committed").isZero();
            assertThat(countBetween(1000, 1002)).as("the batch committed before the kill survived").isEqualTo(2);
            sink.write(rows(INSERT, 1100, 5));
            assertThat(countBetween(1100, 1600)).isEqualTo(5);
        }
    }

    @Test
    void aFastShutdownMidBatchIsTransient() throws Exception {
        try (SqlSink sink = sink()) {
            CompletableFuture<Throwable> write = CompletableFuture.supplyAsync(
                    () -> catchThrowable(() -> sink.write(rows(SLOW_INSERT, 2000, 500))));
            awaitSlowBatchRunning();

            postgres.stop();

            assertThat(write.get(60, TimeUnit.SECONDS)).isInstanceOf(TransientException.class);
            postgres.restart();
            assertThat(countBetween(2000, 2500)).isZero();
            sink.write(rows(INSERT, 2000, 1));
            assertThat(countBetween(2000, 2500)).isEqualTo(1);
        }
    }
}
