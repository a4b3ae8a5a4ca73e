package io.qubiq.sink.sql;

import io.qubiq.core.sink.ItemCodec;
import io.qubiq.core.sink.Sink;
import io.qubiq.testkit.postgres.PostgresExtension;
import io.qubiq.testkit.postgres.PostgresServer;
import io.qubiq.testkit.sink.SinkContract;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sink contract against a real PostgreSQL; each test writes a table of its own. */
@ExtendWith(PostgresExtension.class)
class SqlSinkContractTest extends SinkContract<SqlRow> {

    static PostgresServer postgres;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private String table;

    @BeforeEach
    void createTable() {
        table = "contract_" + TABLES.incrementAndGet();
        postgres.execute("CREATE TABLE " + table + " (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                + " n int NOT NULL CHECK (n >= 0), item_id text UNIQUE)");
    }

    /** The test server as user postgres; the default 5 s connection timeout (a loaded machine needs it). */
    static SqlSinkConfig config(PostgresServer server) {
        return SqlSinkConfig.of(server.jdbcUrl()).withCredentials(PostgresServer.USER, null);
    }

    @Override
    protected Sink<SqlRow> newSink() throws Exception {
        return new SqlSink("sql", config(postgres));
    }

    @Override
    protected Sink<SqlRow> newSinkToUnreachableDestination() throws Exception {
        return new SqlSink("sql", SqlSinkConfig.of("jdbc:postgresql://127.0.0.1:" + Ports.closed() + "/postgres")
                .withConnectionTimeoutMs(500));
    }

    @Override
    protected SqlRow item(int n) {
        return new SqlRow("item-" + n, "INSERT INTO " + table + " (n, item_id) VALUES (:n, :item_id)", Map.of("n", n));
    }

    @Override
    protected SqlRow poisonItem(int n) {
        return new SqlRow("poison-" + n, "INSERT INTO " + table + " (n, item_id) VALUES (:n, :item_id)",
                Map.of("n", -n - 1));
    }

    @Override
    protected List<Integer> delivered() {
        return postgres.query("SELECT n FROM " + table + " ORDER BY seq").stream()
                .map(row -> ((Number) row.get(0)).intValue()).toList();
    }

    @Override
    protected ItemCodec<SqlRow> codec() {
        return new SqlRowCodec();
    }
}
