package io.qubiq.console;

import io.qubiq.auth.Permission;

/**
 * {@code GET /api/v1/pipelines} and {@code GET /api/v1/pipelines/{id}}: each pipeline's trigger,
 * enabled flag, counters (events, filtered, failed, emitted, refused, dropped), last error and
 * per-output totals (View connections); {@code POST /api/v1/pipelines/{id}/enable} and {@code
 * .../disable} (Edit connections).
 */
public final class PipelineRoutes implements ApiRoutes {

    private final PipelineAccess pipelines;

    public PipelineRoutes(PipelineAccess pipelines) {
        this.pipelines = pipelines;
    }

    @Override
    public void register(Api api) {
        Access view = Access.to(Permission.VIEW_CONNECTIONS);
        Access edit = Access.to(Permission.EDIT_CONNECTIONS);
        Reply<PipelineAccess.Pipeline> one = Reply.json(PipelineAccess.Pipeline.class)
                .failing(RequestFailure.NotFound.class);
        api.get("/api/v1/pipelines", view, "Every pipeline with its counters and last error",
                Reply.jsonList(PipelineAccess.Pipeline.class), ctx -> pipelines.pipelines());
        api.get("/api/v1/pipelines/{id}", view, "One pipeline", one, ctx -> pipelines.pipeline(ctx.pathParam("id"))
                .orElseThrow(() -> new RequestFailure.NotFound("no pipeline '" + ctx.pathParam("id") + "'")));
        api.post("/api/v1/pipelines/{id}/enable", edit, "Enable a pipeline (kept across restarts)", one, ctx ->
                pipelines.setEnabled(ctx.pathParam("id"), true, RequestGuard.principal(ctx).user(), RequestGuard.from(ctx)));
        api.post("/api/v1/pipelines/{id}/disable", edit, "Disable a pipeline (kept across restarts)", one, ctx ->
                pipelines.setEnabled(ctx.pathParam("id"), false, RequestGuard.principal(ctx).user(),
                        RequestGuard.from(ctx)));
    }
}
