package io.qubiq.app.history;

import io.qubiq.console.HistoryAccess;
import io.qubiq.console.RequestFailure;
import io.qubiq.historian.Historian;
import io.qubiq.historian.query.HistoryQuery;
import io.qubiq.historian.query.HistoryRequest;
import io.qubiq.historian.query.HistoryRequestException;
import io.qubiq.historian.query.ResultTooLargeException;
import io.qubiq.historian.wal.WalSupervisor;
import io.qubiq.questdb.exec.SqlException;
import java.util.List;
import java.util.Map;

/** The console's access to the historian: queries, status views and the WAL skip, with failures typed for the console. */
public final class HistorianAccess implements HistoryAccess {

    private final Historian historian;
    private final HistoryQuery queries;
    private final WalSupervisor wal;

    public HistorianAccess(Historian historian, WalSupervisor wal) {
        this.historian = historian;
        this.queries = HistoryQuery.of(historian);
        this.wal = wal;
    }

    @Override
    public List<Series> query(Map<String, List<String>> params) {
        HistoryRequest request;
        try {
            request = HistoryRequest.parse(params);
        } catch (HistoryRequestException e) {
            throw new RequestFailure.InvalidRequest(e.getMessage());
        }
        try {
            return queries.run(request).stream().map(HistoryReports::series).toList();
        } catch (ResultTooLargeException e) {
            throw new RequestFailure.LimitExceeded(e.getMessage());
        } catch (SqlException e) {
            throw questDbFailure("history query failed: " + e.getMessage(), e);
        }
    }

    @Override
    public List<WalTable> walStatus() {
        return wal.status().stream().map(HistoryReports::table).toList();
    }

    @Override
    public WalTable skipWalTransaction(String table, String user, String from) {
        try {
            return HistoryReports.table(wal.resumeFromNextTransaction(table, user, from));
        } catch (IllegalArgumentException e) {
            throw new RequestFailure.NotFound(e.getMessage());
        } catch (SqlException e) {
            throw questDbFailure("resuming " + table + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Status status() {
        return HistoryReports.status(historian.status());
    }

    /** QuestDB out of reach: try later; reached but failing the statement: it refused. */
    private static RequestFailure questDbFailure(String message, SqlException e) {
        return e.unreachable() ? new RequestFailure.Unavailable(message) : new RequestFailure.DependencyFailed(message);
    }
}
