package io.qubiq.console;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The chart library the console's trend page uses, served from its webjar on the classpath (no copied
 * front-end files in the repository): {@code /vendor/uplot/uPlot.iife.min.js} and
 * {@code /vendor/uplot/uPlot.min.css}. The webjar holds no directory entry for {@code dist/}, so the
 * two files are routes of their own rather than a static folder. Public, like every static file.
 */
final class VendorFiles {

    /** The uPlot webjar's version, part of the classpath path its files live under. */
    static final String UPLOT_VERSION = "1.6.30";
    private static final String UPLOT = "/META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/";
    private static final Map<String, String> FILES = Map.of(
            "uPlot.iife.min.js", "text/javascript; charset=utf-8",
            "uPlot.min.css", "text/css; charset=utf-8");

    private VendorFiles() {
    }

    static void register(RoutesConfig routes) {
        FILES.forEach((file, type) -> routes.get("/vendor/uplot/" + file, ctx -> serve(ctx, UPLOT + file, type)));
    }

    private static void serve(Context ctx, String resource, String type) throws IOException {
        try (InputStream in = VendorFiles.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new ApiError(404, "the uPlot " + UPLOT_VERSION + " webjar is not on the classpath (" + resource + ")");
            }
            ctx.contentType(type);
            ctx.header("Cache-Control", "max-age=86400");
            ctx.result(in.readAllBytes());
        }
    }
}
