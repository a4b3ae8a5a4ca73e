package io.qubiq.console;

import io.qubiq.core.lifecycle.Readiness;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.core.lifecycle.Component;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's HTTP server (Javalin on Jetty): the console's static pages from the {@code
 * qubiq-ui} classpath folder, {@code /health}, {@code /metrics} and, as features land, the REST
 * API under {@code /api/v1}.
 *
 * <p>{@code /health} answers 200 with a JSON report only while the gateway is {@link
 * Readiness#READY}, and 503 with the same report otherwise, so a supervisor or load balancer can
 * tell "starting" and "stopping" from "serving". {@code /metrics} serves the Prometheus text format.
 *
 * <p>Threading: started and stopped by the lifecycle thread; requests run on Jetty's pool and
 * only read the {@link StatusView} and the meter registry, both safe for concurrent readers.
 */
public final class ConsoleServer implements Component {

    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private static final Logger log = LoggerFactory.getLogger(ConsoleServer.class);

    private final HttpConfig config;
    private final StatusView status;
    private final PrometheusMeterRegistry metrics;
    private final Clock clock;
    private final List<ApiRoutes> apiRoutes;
    private Javalin app;

    public ConsoleServer(HttpConfig config, StatusView status, PrometheusMeterRegistry metrics, Clock clock) {
        this(config, status, metrics, clock, List.of());
    }

    public ConsoleServer(HttpConfig config, StatusView status, PrometheusMeterRegistry metrics, Clock clock,
                         List<ApiRoutes> apiRoutes) {
        this.apiRoutes = List.copyOf(apiRoutes);
        this.config = Objects.requireNonNull(config, "config");
        this.status = Objects.requireNonNull(status, "status");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String name() {
        return "http";
    }

    @Override
    public void start() {
        ObjectMapper json = new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .registerModule(new Jdk8Module())
                .registerModule(CoreJson.module())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        app = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.startup.showOldJavalinVersionWarning = false;
            cfg.jsonMapper(new JavalinJackson(json, false));
            cfg.jetty.host = config.bindAddress();
            cfg.jetty.port = config.port();
            cfg.staticFiles.add(files -> {
                files.hostedPath = "/";
                files.directory = "/qubiq-ui";
                files.location = Location.CLASSPATH;
            });
            cfg.routes.get("/health", this::health);
            cfg.routes.get("/metrics", this::metrics);
            cfg.routes.exception(ApiError.class, (error, ctx) -> {
                ctx.status(error.status());
                ctx.json(new ApiError.Body(error.status(), error.getMessage()));
            });
            cfg.routes.exception(Exception.class, (error, ctx) -> {
                // not an expected failure: a bug. The operator gets a clear line, the log the stack trace.
                log.error("{} {} failed: {}", ctx.method(), ctx.path(), error.toString(), error);
                ctx.status(500);
                ctx.json(new ApiError.Body(500, "internal error: " + error + " (details in the gateway log)"));
            });
            for (ApiRoutes routes : apiRoutes) {
                routes.register(cfg.routes);
            }
        });
        app.start();
        log.info("Console listening on http://{}:{}/", config.bindAddress(), app.port());
    }

    /** The port actually bound: differs from the configured one when that was 0. */
    public int port() {
        if (app == null) {
            throw new IllegalStateException("the console server has not been started");
        }
        return app.port();
    }

    @Override
    public void stop() {
        if (app != null) {
            app.stop();
            app = null;
        }
    }

    private void health(Context ctx) {
        HealthReport report = HealthReport.of(status, clock.instant());
        ctx.header("Cache-Control", "no-store");
        ctx.status(status.readiness().isReady() ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
        ctx.json(report);
    }

    private void metrics(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        ctx.contentType(PROMETHEUS_TEXT);
        ctx.result(metrics.scrape());
    }
}
