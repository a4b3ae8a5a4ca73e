package io.qubiq.console;

import io.javalin.config.RoutesConfig;

/**
 * {@code GET /api/v1/pipelines} and {@code GET /api/v1/pipelines/{id}}: each pipeline's trigger,
 * enabled flag, counters (events, filtered, failed, emitted, refused, dropped), last error and
 * per-output totals. Read-only: enabling and disabling come with sign-in and permissions.
 */
public final class PipelineRoutes implements ApiRoutes {

    private final PipelineAccess pipelines;

    public PipelineRoutes(PipelineAccess pipelines) {
        this.pipelines = pipelines;
    }

    @Override
    public void register(RoutesConfig routes) {
        routes.get("/api/v1/pipelines", ctx -> ctx.json(pipelines.pipelines()));
        routes.get("/api/v1/pipelines/{id}", ctx -> ctx.json(pipelines.pipeline(ctx.pathParam("id"))
                .orElseThrow(() -> ApiError.notFound("no pipeline '" + ctx.pathParam("id") + "'"))));
    }
}
