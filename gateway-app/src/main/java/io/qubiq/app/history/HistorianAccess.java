package io.qubiq.app.history;

import io.qubiq.console.ApiError;
import io.qubiq.console.HistoryAccess;
import io.qubiq.historian.Historian;
import io.qubiq.historian.query.HistoryQuery;
import io.qubiq.historian.query.HistoryRequest;
import io.qubiq.historian.query.HistoryRequestException;
import io.qubiq.historian.query.ResultTooLargeException;
import io.qubiq.historian.wal.WalSupervisor;
import io.qubiq.questdb.exec.SqlException;
import java.util.List;
import java.util.Map;

/** The console's access to the historian: queries translated to HTTP answers, and status views. */
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
            throw ApiError.badRequest(e.getMessage());
        }
        try {
            return queries.run(request).stream().map(HistoryReports::series).toList();
        } catch (ResultTooLargeException e) {
            throw new ApiError(422, e.getMessage());
        } catch (SqlException e) {
            throw new ApiError(e.unreachable() ? 503 : 502, "history query failed: " + e.getMessage());
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
            throw ApiError.notFound(e.getMessage());
        } catch (SqlException e) {
            throw new ApiError(e.unreachable() ? 503 : 502, "resuming " + table + " failed: " + e.getMessage());
        }
    }

    @Override
    public Status status() {
        return HistoryReports.status(historian.status());
    }
}
