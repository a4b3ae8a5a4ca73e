package io.qubiq.benchmarks;

import io.qubiq.historian.HistorySchema;
import io.qubiq.historian.PartitionUnit;
import io.qubiq.historian.ValueTable;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlException;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbServer;
import io.questdb.client.Sender;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * The QuestDB side of {@link HistorianThroughputHarness}: tables made with the historian's DDL
 * ({@code WAL DEDUP UPSERT KEYS(ts, tag)}), row counts, and the direct writer the gateway is
 * compared with: the questdb-client sender writing the historian's row layout, a flush every
 * {@code batch} rows. Row i of a table has timestamp {@code baseMicros + i}, so every row is new.
 */
final class HistorianTables {

    private final QuestDbServer server;
    private final String[] tags;
    private final int batch;
    private final long baseMicros;

    HistorianTables(QuestDbServer server, String[] tags, int batch, long baseMicros) {
        this.server = server;
        this.tags = tags;
        this.batch = batch;
        this.baseMicros = baseMicros;
    }

    /** Creates the history tables {@code <prefix>_*}; returns the FLOAT64 one. */
    String create(String prefix) {
        HistorySchema schema = new HistorySchema(prefix, PartitionUnit.DAY, 0);
        for (String ddl : schema.createStatements()) {
            sql(ddl);
        }
        return schema.table(ValueTable.DOUBLE);
    }

    /** A statement without a result set (DDL), over /exec with the historian's own client. */
    private void sql(String statement) {
        try {
            ExecClient.of(server.ilpAddress(), Duration.ofSeconds(60)).exec(statement);
        } catch (SqlException e) {
            throw new IllegalStateException(statement + ": " + e.getMessage(), e);
        }
    }

    long count(String table) {
        ExecResult r = server.exec("SELECT count() FROM " + table);
        return ((Number) r.rows().get(0).get(0)).longValue();
    }

    /** Polls count() every 20 ms until it reaches n. Fails above n, or after 10 minutes without progress. */
    void awaitCount(String table, long n) {
        long last = -1;
        long lastChange = System.nanoTime();
        while (true) {
            long c;
            try {
                c = count(table);
            } catch (RuntimeException e) {
                c = last; // table not created yet by the sink, or a transient /exec failure
            }
            if (c >= n) {
                if (c > n) {
                    throw new IllegalStateException(table + " has " + c + " rows, expected " + n);
                }
                return;
            }
            if (c != last) {
                last = c;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > 600_000_000_000L) {
                throw new IllegalStateException(table + " stuck at " + c + " of " + n + " rows for 10 minutes");
            }
            LockSupport.parkNanos(20_000_000);
        }
    }

    /**
     * Writes the next n rows of {@code table}, which holds {@code rowsBefore} rows (a new sender, a
     * flush every {@code batch} rows), and waits until its {@code count()} shows them; returns the
     * seconds until the last flush returned.
     */
    double writeRows(String table, long rowsBefore, long n) {
        long first = baseMicros + rowsBefore;
        String config = "http::addr=" + server.ilpAddress() + ";auto_flush=off;protocol_version=2;retry_timeout=0;";
        long t0 = System.nanoTime();
        try (Sender sender = Sender.fromConfig(config)) {
            for (long i = 0; i < n; i++) {
                long micros = first + i;
                sender.table(table)
                        .symbol("gateway", HistorianPipeline.GATEWAY) // as every history row since issue 20
                        .symbol("tag", tags[(int) (i % tags.length)])
                        .doubleColumn("value", HistorianPipeline.value(i))
                        .longColumn("quality", 0)
                        .timestampColumn("source_ts", micros, ChronoUnit.MICROS)
                        .timestampColumn("server_ts", micros, ChronoUnit.MICROS)
                        .at(micros, ChronoUnit.MICROS);
                if ((i + 1) % batch == 0) {
                    sender.flush();
                }
            }
            sender.flush();
        }
        double sent = (System.nanoTime() - t0) / 1e9;
        awaitCount(table, rowsBefore + n);
        return sent;
    }
}
