package io.qubiq.console;

import io.javalin.http.Context;
import io.qubiq.auth.Permission;
import io.qubiq.core.event.LossReason;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code GET /api/v1/losses?from=&to=&connection=&reason=&limit=1000} (View connections): the loss
 * ledger's entries, newest first, with totals per day and the damage the ledger found in itself.
 */
public final class LossRoutes implements ApiRoutes {

    static final int DEFAULT_LIMIT = 1000;
    static final int MAX_LIMIT = 10_000;

    private final LossAccess losses;

    public LossRoutes(LossAccess losses) {
        this.losses = losses;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/losses", Access.to(Permission.VIEW_CONNECTIONS),
                "Data lost: loss ledger entries newest first, totals per day, ledger damage",
                Reply.json(LossAccess.Report.class).failing(RequestFailure.InvalidRequest.class),
                ctx -> losses.query(query(ctx)));
    }

    static LossAccess.Query query(Context ctx) {
        Optional<Instant> from = AuditRoutes.instant(ctx, "from");
        Optional<Instant> to = AuditRoutes.instant(ctx, "to");
        if (from.isPresent() && to.isPresent() && to.get().isBefore(from.get())) {
            throw new RequestFailure.InvalidRequest("to (" + to.get() + ") is before from (" + from.get() + ")");
        }
        int limit = StoreForwardRoutes.intParam(ctx, "limit", DEFAULT_LIMIT);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new RequestFailure.InvalidRequest("limit must be 1 to " + MAX_LIMIT + ", got " + limit);
        }
        Optional<String> connection = text(ctx, "connection");
        Optional<LossReason> reason = text(ctx, "reason").map(raw -> LossReason.ofLabel(raw).orElseThrow(() ->
                new RequestFailure.InvalidRequest("reason must be one of " + Arrays.stream(LossReason.values())
                        .map(LossReason::label).collect(Collectors.joining(", ")) + ", got '" + raw + "'")));
        return new LossAccess.Query(from, to, connection, reason, limit);
    }

    private static Optional<String> text(Context ctx, String name) {
        return Optional.ofNullable(ctx.queryParam(name)).map(String::strip).filter(s -> !s.isEmpty());
    }
}
