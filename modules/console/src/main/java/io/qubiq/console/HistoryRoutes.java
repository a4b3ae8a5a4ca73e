package io.qubiq.console;

import io.qubiq.auth.Permission;
import io.qubiq.auth.Principal;

/**
 * {@code GET /api/v1/history?tags=a,b&from=...&to=...[&interval=1m&agg=avg]}: raw samples or
 * aggregates per interval, stored history merged with the live tail; {@code GET
 * /api/v1/historian} and {@code GET /api/v1/historian/wal}: the historian's and the WAL
 * supervisor's status (View history); {@code POST /api/v1/historian/wal/{table}/skip}: resume a
 * suspended table past its failed transaction (Edit connections).
 */
public final class HistoryRoutes implements ApiRoutes {

    private static final Access VIEW = Access.to(Permission.VIEW_HISTORY);

    private final HistoryAccess history;

    public HistoryRoutes(HistoryAccess history) {
        this.history = history;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/history", VIEW, "Raw or aggregated history of tags, merged with the live tail",
                Reply.jsonList(HistoryAccess.Series.class).failing(RequestFailure.InvalidRequest.class,
                        RequestFailure.LimitExceeded.class, RequestFailure.Unavailable.class,
                        RequestFailure.DependencyFailed.class),
                ctx -> history.query(ctx.queryParamMap()));
        api.get("/api/v1/historian", VIEW, "The historian's status", Reply.json(HistoryAccess.Status.class),
                ctx -> history.status());
        api.get("/api/v1/historian/wal", VIEW, "The WAL supervisor's view of each history table",
                Reply.jsonList(HistoryAccess.WalTable.class), ctx -> history.walStatus());
        api.post("/api/v1/historian/wal/{table}/skip", Access.to(Permission.EDIT_CONNECTIONS),
                "Resume a suspended history table from the next transaction, skipping the failed one",
                Reply.json(HistoryAccess.WalTable.class).failing(RequestFailure.NotFound.class,
                        RequestFailure.Unavailable.class, RequestFailure.DependencyFailed.class), ctx -> {
                    Principal who = RequestGuard.principal(ctx);
                    return history.skipWalTransaction(ctx.pathParam("table"), who.user(), RequestGuard.from(ctx));
                });
    }
}
