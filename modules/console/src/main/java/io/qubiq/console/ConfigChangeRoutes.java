package io.qubiq.console;

import io.javalin.http.Context;
import io.qubiq.auth.Permission;
import io.qubiq.auth.Principal;
import java.util.Optional;
import java.util.Set;

/**
 * Changing the configuration file over the API (issue 22, the write side):
 * <ul>
 *   <li>{@code PUT /api/v1/config/{key}} with {@code {"revision", "value", "comment"}}: sets one key or
 *       section, written as the fewest leaf edits so the rest of the file keeps its text, comments and
 *       {@code ${VARIABLE}} references; {@code DELETE /api/v1/config/{key}} with {@code {"revision", "comment"}}
 *       removes one. Keys under {@code devices}, {@code outbound}, {@code pipelines} and {@code historian}
 *       need Edit connections, every other key Manage configuration.</li>
 *   <li>{@code POST /api/v1/config/reload} (Manage configuration): reads a hand-edited file again.</li>
 *   <li>{@code GET /api/v1/config/revisions}, {@code GET /api/v1/config/revisions/{id}} (View connections):
 *       the history; {@code POST /api/v1/config/revisions/{id}/rollback} (Manage configuration), and
 *       {@code GET} on the same path (Manage configuration): what that rollback would change, asked first.</li>
 * </ul>
 * Statuses, decided here: 200 written ({@link ConfigChanges.Written}); 409 made on a revision that is no
 * longer the file's ({@link ConfigChanges.Stale}); 422 invalid, or a secret or a key from the environment
 * changed ({@link ConfigChanges.Invalid}); 403 a key outside what the caller's permission covers.
 * Optional body field {@code "source": "console"} marks a change made in the console (default {@code api}).
 * Optional {@code "onShrink": "keep"|"drop_oldest"} and {@code "onRemove": "drain"|"keep_orphan"|"discard"} (PUT,
 * DELETE, import, rollback) say what happens to buffered data the change affects; a change that needs one and lacks it is answered
 * 409 with {@link ConfigChanges.ChoiceNeeded} (the backlogs and the options), and nothing is written.
 */
public final class ConfigChangeRoutes implements ApiRoutes {

    /** The sections Edit connections covers; every other key needs Manage configuration. */
    static final Set<String> CONNECTION_SECTIONS = Set.of("devices", "outbound", "pipelines", "historian");
    private static final String PUT_SHAPE = "{\"revision\": \"sha256:...\", \"value\": 100, \"comment\": \"why\"}";
    private static final String DELETE_SHAPE = "{\"revision\": \"sha256:...\", \"comment\": \"why\"}";
    private static final String ROLLBACK_SHAPE = "{\"comment\": \"why\"}";
    private static final String IMPORT_SHAPE = "{\"revision\": \"sha256:...\", \"text\": \"gateway: ...\", \"comment\": \"why\"}";

    private final ConfigChanges changes;

    public ConfigChangeRoutes(ConfigChanges changes) {
        this.changes = changes;
    }

    @Override
    public void register(Api api) {
        Access view = Access.to(Permission.VIEW_CONNECTIONS);
        Access edit = Access.to(Permission.EDIT_CONNECTIONS);
        Access manage = Access.to(Permission.MANAGE_CONFIGURATION);
        api.put("/api/v1/config/{key}", edit, "Set one key or section of the configuration file (key path such as"
                        + " outbound.db.store_and_forward); Manage configuration for keys outside devices, outbound,"
                        + " pipelines and historian", written(), ctx -> {
                    String key = ctx.pathParam("key");
                    mayChange(key, RequestGuard.principal(ctx));
                    JsonBody body = JsonBody.of(ctx, PUT_SHAPE);
                    Object value = body.anyValue("value");
                    return answer(ctx, changes.put(key, value, body.text("revision"),
                            body.optionalText("comment").orElse(""), author(ctx, body), choices(body)));
                });
        api.delete("/api/v1/config/{key}", edit, "Remove one key or section from the configuration file; Manage"
                        + " configuration for keys outside devices, outbound, pipelines and historian", written(), ctx -> {
                    String key = ctx.pathParam("key");
                    mayChange(key, RequestGuard.principal(ctx));
                    JsonBody body = JsonBody.of(ctx, DELETE_SHAPE);
                    return answer(ctx, changes.remove(key, body.text("revision"),
                            body.optionalText("comment").orElse(""), author(ctx, body), choices(body)));
                });
        api.post("/api/v1/config/reload", manage, "Read the configuration file again after a hand edit: validate,"
                + " record as a revision, apply", written(), ctx -> answer(ctx, changes.reload(author(ctx, null))));
        api.get("/api/v1/config/export", manage, "The configuration file as it is on disk, with its revision"
                        + " (references to environment variables stay references)",
                Reply.json(ConfigChanges.Export.class).failing(RequestFailure.NotFound.class), ctx -> changes.export());
        api.post("/api/v1/config/import", manage, "Make a whole configuration file (as exported) the gateway's:"
                + " validated, kept as a revision, applied; try it first with POST /api/v1/config/validate", written(),
                ctx -> {
                    JsonBody body = JsonBody.of(ctx, IMPORT_SHAPE);
                    return answer(ctx, changes.importText(body.text("text"), body.text("revision"),
                            body.optionalText("comment").orElse(""), author(ctx, body), choices(body)));
                });
        api.get("/api/v1/config/revisions", view, "The kept revisions of the configuration file, newest first",
                Reply.jsonList(ConfigChanges.RevisionSummary.class), ctx -> changes.revisions());
        api.get("/api/v1/config/revisions/{id}", view, "One revision (number or sha256 token) and its diff against"
                        + " its parent, secrets masked",
                Reply.json(ConfigChanges.RevisionDetail.class).failing(RequestFailure.NotFound.class),
                ctx -> changes.revision(ctx.pathParam("id")));
        api.get("/api/v1/config/revisions/{id}/rollback", manage, "What a rollback to that revision would change: the"
                        + " file's lines from now to its text, unified, secrets masked; changes nothing",
                Reply.json(ConfigChanges.RollbackPreview.class).failing(RequestFailure.NotFound.class,
                        RequestFailure.Fault.class),
                ctx -> changes.rollbackPreview(ctx.pathParam("id")));
        api.post("/api/v1/config/revisions/{id}/rollback", manage, "Write an earlier revision's text as a new revision"
                + " (source rollback): validated and applied like any change", written(), ctx -> {
                    JsonBody body = ctx.body().isBlank() ? null : JsonBody.of(ctx, ROLLBACK_SHAPE);
                    String comment = body == null ? "" : body.optionalText("comment").orElse("");
                    return answer(ctx, changes.rollback(ctx.pathParam("id"), comment, author(ctx, body),
                            body == null ? ConfigChanges.Choices.none() : choices(body)));
                });
    }

    static Reply<ConfigChanges.Written> written() {
        return Reply.json(ConfigChanges.Written.class)
                .failing(RequestFailure.InvalidRequest.class, RequestFailure.Forbidden.class,
                        RequestFailure.NotFound.class, RequestFailure.Fault.class)
                .orAnswers(409, "made on a revision that is no longer the file's: the current revision and what"
                        + " changed since (Stale); or the change would cost buffered data: the backlogs concerned and"
                        + " the choices, to send again as onShrink or onRemove (ChoiceNeeded)", ConfigChanges.Stale.class)
                .orAnswers(422, "the new configuration would be invalid, or it changes a secret or a key taken from"
                        + " the environment: every problem; nothing was written", ConfigChanges.Invalid.class);
    }

    /** The status of each outcome, decided here and nowhere else. */
    static ConfigChanges.Written answer(Context ctx, ConfigChanges.Outcome outcome) {
        if (outcome instanceof ConfigChanges.Written written) {
            return written;
        }
        ctx.status(outcome instanceof ConfigChanges.Invalid ? 422 : 409).json(outcome);
        return null;
    }

    /** The optional {@code onShrink} and {@code onRemove} fields, each one of its documented values. */
    static ConfigChanges.Choices choices(JsonBody body) {
        Optional<String> onShrink = body.optionalText("onShrink");
        Optional<String> onRemove = body.optionalText("onRemove");
        onShrink.filter(v -> !ConfigChanges.Choices.ON_SHRINK.contains(v)).ifPresent(v -> {
            throw new RequestFailure.InvalidRequest("'onShrink' is one of " + ConfigChanges.Choices.ON_SHRINK
                    + ", not '" + v + "'");
        });
        onRemove.filter(v -> !ConfigChanges.Choices.ON_REMOVE.contains(v)).ifPresent(v -> {
            throw new RequestFailure.InvalidRequest("'onRemove' is one of " + ConfigChanges.Choices.ON_REMOVE
                    + ", not '" + v + "'");
        });
        return new ConfigChanges.Choices(onShrink, onRemove);
    }

    /** Keys outside the connection sections need Manage configuration. */
    static void mayChange(String key, Principal principal) {
        if (!CONNECTION_SECTIONS.contains(section(key)) && !principal.has(Permission.MANAGE_CONFIGURATION)) {
            throw new RequestFailure.Forbidden("changing '" + key + "' needs the permission "
                    + Permission.MANAGE_CONFIGURATION.label() + "; Edit connections covers only the keys under "
                    + String.join(", ", CONNECTION_SECTIONS.stream().sorted().toList()));
        }
    }

    /** The first key of a key path ({@code outbound} of {@code outbound.db.sql}). */
    static String section(String key) {
        if (key.startsWith("\"")) {
            int close = key.indexOf('"', 1);
            return close < 0 ? key : key.substring(1, close);
        }
        int end = key.length();
        for (char c : new char[] {'.', '['}) {
            int at = key.indexOf(c);
            end = at >= 0 ? Math.min(end, at) : end;
        }
        return key.substring(0, end);
    }

    static ConfigChanges.Author author(Context ctx, JsonBody body) {
        Principal principal = RequestGuard.principal(ctx);
        String source = body == null ? "api" : body.optionalText("source").orElse("api");
        if (!source.equals("api") && !source.equals("console")) {
            throw new RequestFailure.InvalidRequest("'source' is api or console, not '" + source + "'");
        }
        String author = principal.via() == Principal.Via.API_TOKEN
                ? "api-token:" + principal.credentialId() : principal.user();
        return new ConfigChanges.Author(principal.user(), author, source, RequestGuard.from(ctx));
    }
}
