package io.qubiq.console;

import io.qubiq.auth.Permission;

/**
 * A device connection's tags as CSV:
 * <ul>
 *   <li>{@code GET /api/v1/connections/{id}/tags/export} (View connections): {@link TagTables.Table};</li>
 *   <li>{@code POST /api/v1/connections/{id}/tags/import} (Edit connections) with
 *       {@code {"revision", "csv", "comment"}}: answered as {@code PUT /api/v1/config/{key}} (200, 409, 422),
 *       a problem's {@code line} being the CSV line.</li>
 * </ul>
 */
public final class TagTableRoutes implements ApiRoutes {

    private static final String IMPORT_SHAPE = "{\"revision\": \"sha256:...\", \"csv\": \"path,node_id\\n...\", "
            + "\"comment\": \"why\"}";

    private final TagTables tables;

    public TagTableRoutes(TagTables tables) {
        this.tables = tables;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/connections/{id}/tags/export", Access.to(Permission.VIEW_CONNECTIONS),
                "A device connection's tags as CSV, with the file's revision to import on",
                Reply.json(TagTables.Table.class).failing(RequestFailure.NotFound.class, RequestFailure.Conflict.class),
                ctx -> tables.export(ctx.pathParam("id")));
        api.post("/api/v1/connections/{id}/tags/import", Access.to(Permission.EDIT_CONNECTIONS),
                "Replace a device connection's tags with a CSV table: every row checked, problems by CSV line;"
                        + " written as one change of the configuration file",
                ConfigChangeRoutes.written(), ctx -> {
                    JsonBody body = JsonBody.of(ctx, IMPORT_SHAPE);
                    return ConfigChangeRoutes.answer(ctx, tables.importCsv(ctx.pathParam("id"), body.text("csv"),
                            body.text("revision"), body.optionalText("comment").orElse(""),
                            ConfigChangeRoutes.author(ctx, body)));
                });
    }
}
