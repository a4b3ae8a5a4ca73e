package io.qubiq.historian;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.EncodedItems;
import io.qubiq.core.sink.EncodedWrites;
import io.qubiq.core.sink.Sink;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlException;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSink;
import java.util.List;

/**
 * Wraps the historian's QuestDB sink so that no row is written before the history tables exist
 * with their dedup keys: otherwise QuestDB would create a table from the first ILP row, without
 * them, and replays would duplicate rows. The first write creates the tables (a no-op for tables
 * that exist); while QuestDB cannot be reached that is a transient failure, and a statement QuestDB
 * refuses is a configuration failure, so the channel keeps the batch either way.
 *
 * <p>It passes {@link EncodedWrites} on, so the channel's forwarder hands buffered rows over as
 * bytes. Threading: as for any sink, {@link #write} is called by one thread at a time.
 */
final class SchemaFirstSink implements Sink<QuestDbRow>, EncodedWrites {

    private final QuestDbSink delegate;
    private final HistorySchema schema;
    private final ExecClient exec;
    private volatile boolean ready;

    SchemaFirstSink(QuestDbSink delegate, HistorySchema schema, ExecClient exec) {
        this.delegate = delegate;
        this.schema = schema;
        this.exec = exec;
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public void write(List<QuestDbRow> batch) throws GatewayException {
        ensureTables();
        delegate.write(batch);
    }

    /** Buffered rows as bytes: the same tables first, then {@link QuestDbSink#writeEncoded}. */
    @Override
    public void writeEncoded(EncodedItems items) throws GatewayException {
        ensureTables();
        delegate.writeEncoded(items);
    }

    private void ensureTables() throws GatewayException {
        if (!ready) {
            try {
                schema.create(exec);
                ready = true;
            } catch (SqlException e) {
                if (e.unreachable()) {
                    throw new TransientException("history tables not created yet: " + e.getMessage(), e);
                }
                throw new ConfigurationException("historian", "QuestDB refused to create the history tables: "
                        + e.getMessage(), e);
            }
        }
    }

    @Override
    public ConnectionStatus probe() {
        return delegate.probe();
    }

    @Override
    public boolean idempotent() {
        return delegate.idempotent();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
