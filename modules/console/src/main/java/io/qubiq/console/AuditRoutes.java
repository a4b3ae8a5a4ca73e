package io.qubiq.console;

import io.javalin.http.Context;
import io.qubiq.auth.Permission;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code GET /api/v1/audit?from=&to=&user=&action=&outcome=&text=&before=&limit=100} (View audit): one
 * page of the audit journal, newest first, with the cursor of the next page.
 */
public final class AuditRoutes implements ApiRoutes {

    private final AuditAccess audit;

    public AuditRoutes(AuditAccess audit) {
        this.audit = audit;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/audit", Access.to(Permission.VIEW_AUDIT), "One page of the audit journal, newest first",
                Reply.json(AuditAccess.Page.class).failing(RequestFailure.InvalidRequest.class),
                ctx -> audit.query(query(ctx)));
    }

    static AuditAccess.Query query(Context ctx) {
        int limit = StoreForwardRoutes.intParam(ctx, "limit", 100);
        if (limit < 1 || limit > 1000) {
            throw new RequestFailure.InvalidRequest("limit must be 1 to 1000, got " + limit);
        }
        OptionalLong before = OptionalLong.empty();
        String rawBefore = ctx.queryParam("before");
        if (rawBefore != null && !rawBefore.isBlank()) {
            try {
                before = OptionalLong.of(Long.parseLong(rawBefore.strip()));
            } catch (NumberFormatException e) {
                throw new RequestFailure.InvalidRequest("before must be a journal sequence number (the previous page's next), got '"
                        + rawBefore + "'");
            }
        }
        Optional<Instant> from = instant(ctx, "from");
        Optional<Instant> to = instant(ctx, "to");
        if (from.isPresent() && to.isPresent() && to.get().isBefore(from.get())) {
            throw new RequestFailure.InvalidRequest("to (" + to.get() + ") is before from (" + from.get() + ")");
        }
        return new AuditAccess.Query(from, to, text(ctx, "user"), text(ctx, "action"), text(ctx, "outcome"),
                text(ctx, "text"), before, limit);
    }

    private static Optional<String> text(Context ctx, String name) {
        return Optional.ofNullable(ctx.queryParam(name)).map(String::strip).filter(s -> !s.isEmpty());
    }

    /** An ISO-8601 instant query parameter; 400 naming the parameter when it is not one. */
    static Optional<Instant> instant(Context ctx, String name) {
        return text(ctx, name).map(raw -> {
            try {
                return Instant.parse(raw);
            } catch (DateTimeParseException e) {
                throw new RequestFailure.InvalidRequest(name + " must be an ISO-8601 instant such as 2026-11-30T08:00:00Z, got '"
                        + raw + "'");
            }
        });
    }
}
