package io.qubiq.console;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * Store-and-forward status and quarantine listing:
 * {@code GET /api/v1/store-forward}, {@code GET /api/v1/store-forward/{connection}},
 * {@code GET /api/v1/store-forward/{connection}/quarantine?offset=0&limit=50&class=permanent},
 * {@code GET /api/v1/store-forward/{connection}/quarantine/{id}}.
 */
public final class StoreForwardRoutes implements ApiRoutes {

    private final StoreForwardAccess channels;

    public StoreForwardRoutes(StoreForwardAccess channels) {
        this.channels = channels;
    }

    @Override
    public void register(RoutesConfig routes) {
        routes.get("/api/v1/store-forward", ctx -> ctx.json(channels.channels()));
        routes.get("/api/v1/store-forward/{connection}", ctx -> ctx.json(channels.channel(ctx.pathParam("connection"))
                .orElseThrow(() -> unknown(ctx))));
        routes.get("/api/v1/store-forward/{connection}/quarantine", ctx -> ctx.json(channels.quarantine(
                ctx.pathParam("connection"), intParam(ctx, "offset", 0), intParam(ctx, "limit", 50),
                Optional.ofNullable(ctx.queryParam("class")))));
        routes.get("/api/v1/store-forward/{connection}/quarantine/{id}", ctx -> {
            long id;
            try {
                id = Long.parseLong(ctx.pathParam("id"));
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("quarantine id must be a number, got '" + ctx.pathParam("id") + "'");
            }
            ctx.json(channels.quarantineEntry(ctx.pathParam("connection"), id).orElseThrow(() -> ApiError.notFound(
                    "no quarantined item " + id + " for connection '" + ctx.pathParam("connection") + "'")));
        });
    }

    private static ApiError unknown(Context ctx) {
        return ApiError.notFound("no store-and-forward channel for connection '" + ctx.pathParam("connection") + "'");
    }

    static int intParam(Context ctx, String name, int fallback) {
        String raw = ctx.queryParam(name);
        if (raw == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw ApiError.badRequest(name + " must be a whole number, got '" + raw + "'");
        }
    }
}
