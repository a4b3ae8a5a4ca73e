package io.qubiq.console;

import io.javalin.http.Context;
import io.qubiq.auth.Permission;
import io.qubiq.auth.Principal;
import io.qubiq.console.RequestFailure.Conflict;
import io.qubiq.console.RequestFailure.InvalidRequest;
import io.qubiq.console.RequestFailure.NotFound;
import java.util.List;
import java.util.Optional;

/**
 * Store-and-forward status and the quarantine:
 * {@code GET /api/v1/store-forward}, {@code GET /api/v1/store-forward/{connection}},
 * {@code GET /api/v1/store-forward/{connection}/quarantine?offset=0&limit=50&class=permanent},
 * {@code GET /api/v1/store-forward/{connection}/quarantine/{id}} (View connections), and
 * {@code GET /api/v1/orphaned-channels} (View connections),
 * {@code POST /api/v1/orphaned-channels/{name}/discard} with {@code {"confirm": "<name>", "comment": "why"}} and
 * {@code POST /api/v1/orphaned-channels/{name}/attach} with {@code {"connection": "<outbound id>"}} (Edit
 * connections), and
 * {@code POST /api/v1/store-forward/{connection}/quarantine/retry} and {@code .../drop} with
 * {@code {"ids": [7, 9]}} or {@code {"all": true}} (Edit connections).
 */
public final class StoreForwardRoutes implements ApiRoutes {

    static final int MAX_IDS = 10_000;
    private static final Access VIEW = Access.to(Permission.VIEW_CONNECTIONS);
    private static final Access EDIT = Access.to(Permission.EDIT_CONNECTIONS);

    private final StoreForwardAccess channels;

    public StoreForwardRoutes(StoreForwardAccess channels) {
        this.channels = channels;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/store-forward", VIEW, "Every store-and-forward channel's status",
                Reply.jsonList(StoreForwardAccess.Channel.class), ctx -> channels.channels());
        api.get("/api/v1/orphaned-channels", VIEW,
                "Store-and-forward directories holding data that no configured connection owns",
                Reply.jsonList(StoreForwardAccess.OrphanedChannel.class), ctx -> channels.orphans());
        Reply<StoreForwardAccess.OrphanAction> orphanAction = Reply.json(StoreForwardAccess.OrphanAction.class)
                .failing(InvalidRequest.class, NotFound.class, Conflict.class);
        api.post("/api/v1/orphaned-channels/{name}/discard", EDIT, "Delete an orphan's buffer and quarantine, every"
                + " item recorded in the loss ledger first", orphanAction, ctx -> {
                    JsonBody body = JsonBody.of(ctx, "{\"confirm\": \"<name>\", \"comment\": \"why\"}");
                    Principal who = RequestGuard.principal(ctx);
                    return channels.discardOrphan(ctx.pathParam("name"), body.optionalText("confirm").orElse(""),
                            body.optionalText("comment").orElse(""), who.user(), RequestGuard.from(ctx));
                });
        api.post("/api/v1/orphaned-channels/{name}/attach", EDIT, "Hand an orphan's items to an empty outbound"
                + " connection of the same kind, which delivers them in order", orphanAction, ctx -> {
                    JsonBody body = JsonBody.of(ctx, "{\"connection\": \"<outbound id>\"}");
                    Principal who = RequestGuard.principal(ctx);
                    return channels.attachOrphan(ctx.pathParam("name"), body.text("connection"), who.user(),
                            RequestGuard.from(ctx));
                });
        api.get("/api/v1/store-forward/{connection}", VIEW, "One channel's status",
                Reply.json(StoreForwardAccess.Channel.class).failing(NotFound.class),
                ctx -> channels.channel(ctx.pathParam("connection")).orElseThrow(() -> unknown(ctx)));
        api.get("/api/v1/store-forward/{connection}/quarantine", VIEW, "One page of a channel's quarantine, newest first",
                Reply.json(StoreForwardAccess.QuarantinePage.class).failing(InvalidRequest.class, NotFound.class,
                        Conflict.class),
                ctx -> channels.quarantine(ctx.pathParam("connection"), intParam(ctx, "offset", 0),
                        intParam(ctx, "limit", 50), Optional.ofNullable(ctx.queryParam("class"))));
        api.get("/api/v1/store-forward/{connection}/quarantine/{id}", VIEW, "One quarantined item with a preview",
                Reply.json(StoreForwardAccess.QuarantinePreview.class).failing(InvalidRequest.class, NotFound.class,
                        Conflict.class),
                ctx -> {
                    long id = quarantineId(ctx.pathParam("id"));
                    return channels.quarantineEntry(ctx.pathParam("connection"), id).orElseThrow(() ->
                            new NotFound("no quarantined item " + id + " for connection '"
                                    + ctx.pathParam("connection") + "'"));
                });
        Reply<StoreForwardAccess.ActionResult> action = Reply.json(StoreForwardAccess.ActionResult.class)
                .failing(InvalidRequest.class, NotFound.class, Conflict.class);
        api.post("/api/v1/store-forward/{connection}/quarantine/retry", EDIT,
                "Put quarantined items back at the tail of the channel", action, ctx -> {
                    StoreForwardAccess.Selection selection = selection(ctx);
                    Principal who = RequestGuard.principal(ctx);
                    return channels.retry(ctx.pathParam("connection"), selection, who.user(), RequestGuard.from(ctx));
                });
        api.post("/api/v1/store-forward/{connection}/quarantine/drop", EDIT, "Remove quarantined items for good",
                action, ctx -> {
                    StoreForwardAccess.Selection selection = selection(ctx);
                    Principal who = RequestGuard.principal(ctx);
                    return channels.drop(ctx.pathParam("connection"), selection, who.user(), RequestGuard.from(ctx));
                });
    }

    /** {@code {"ids": [..]}} or {@code {"all": true}}, exactly one of them. */
    static StoreForwardAccess.Selection selection(Context ctx) {
        JsonBody body = JsonBody.of(ctx, "{\"ids\": [7, 9]} or {\"all\": true}");
        Optional<List<Long>> ids = body.optionalLongList("ids", MAX_IDS);
        boolean all = body.optionalBoolean("all").orElse(false);
        if (all == ids.isPresent()) {
            throw new InvalidRequest("send either \"ids\" (a list of quarantine ids) or \"all\": true, not "
                    + (all ? "both" : "neither"));
        }
        if (ids.isPresent() && ids.get().isEmpty()) {
            throw new InvalidRequest("\"ids\" is empty: select at least one quarantined item");
        }
        return new StoreForwardAccess.Selection(ids.orElse(List.of()), all);
    }

    private static long quarantineId(String raw) {
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new InvalidRequest("quarantine id must be a number, got '" + raw + "'");
        }
    }

    private static NotFound unknown(Context ctx) {
        return new NotFound("no store-and-forward channel for connection '" + ctx.pathParam("connection") + "'");
    }

    static int intParam(Context ctx, String name, int fallback) {
        String raw = ctx.queryParam(name);
        if (raw == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new InvalidRequest(name + " must be a whole number, got '" + raw + "'");
        }
    }
}
