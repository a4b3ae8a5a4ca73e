package io.qubiq.console;

import io.javalin.config.RoutesConfig;

/**
 * {@code GET /api/v1/history?tags=a,b&from=...&to=...[&interval=1m&agg=avg]}: raw samples or
 * aggregates per interval, stored history merged with the live tail; {@code GET
 * /api/v1/historian} and {@code GET /api/v1/historian/wal}: the historian's and the WAL
 * supervisor's status.
 */
public final class HistoryRoutes implements ApiRoutes {

    private final HistoryAccess history;

    public HistoryRoutes(HistoryAccess history) {
        this.history = history;
    }

    @Override
    public void register(RoutesConfig routes) {
        routes.get("/api/v1/history", ctx -> ctx.json(history.query(ctx.queryParamMap())));
        routes.get("/api/v1/historian", ctx -> ctx.json(history.status()));
        routes.get("/api/v1/historian/wal", ctx -> ctx.json(history.walStatus()));
    }
}
