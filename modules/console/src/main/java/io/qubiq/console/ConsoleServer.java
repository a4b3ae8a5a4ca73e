package io.qubiq.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.json.JavalinJackson;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qubiq.auth.AccountException;
import io.qubiq.auth.Auth;
import io.qubiq.auth.InvalidNameException;
import io.qubiq.auth.LastAdminException;
import io.qubiq.auth.NotPermittedException;
import io.qubiq.auth.PasswordRejectedException;
import io.qubiq.auth.SetupRefusedException;
import io.qubiq.auth.ThrottledException;
import io.qubiq.auth.TokenNotFoundException;
import io.qubiq.auth.UserExistsException;
import io.qubiq.auth.UserNotFoundException;
import io.qubiq.auth.Permission;
import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.Readiness;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's HTTP server (Javalin on Jetty): the console's static pages from the {@code qubiq-ui}
 * classpath folder, read once and served from memory ({@link UiFiles}: no zip file system of the
 * application jar), and the uPlot chart library from its webjar under {@code /vendor/uplot/}),
 * {@code /health}, {@code /metrics}, and the REST API under {@code /api/v1}, described at
 * {@code /api/v1/openapi.json}.
 *
 * <p>Security: every API route is registered through {@link Api}, which puts {@link RequestGuard}
 * (sign-in, permission, CSRF) in front of its handler; sign-in, setup, the OpenAPI description and
 * {@code /health} are the only public routes ({@code /metrics} too when {@code http.public_metrics}).
 * Static files hold no data and are public. A request whose {@code Host} header names a host the gateway
 * does not answer to is refused with 421 before any handler runs ({@link AllowedHosts}: DNS rebinding). With {@code http.tls} the port serves HTTPS only and the
 * session cookie is {@code Secure}. Every answer carries {@code X-Content-Type-Options},
 * {@code X-Frame-Options}, {@code Referrer-Policy} and a same-origin Content-Security-Policy; API answers
 * are {@code no-store}.
 *
 * <p>{@code /health} answers 200 with a JSON report while the gateway runs ({@link Readiness#READY}, or
 * {@link Readiness#DEGRADED} with each part that is down and why), and 503 with the same report while
 * it starts, stops or has failed.
 *
 * <p>Threading: started and stopped by the lifecycle thread; requests run on Jetty's pool; the live
 * event stream has its own scheduler thread and one sender thread per client ({@link EventOutbox}).
 */
public final class ConsoleServer implements Component {

    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self'"
            + "; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private static final Logger log = LoggerFactory.getLogger(ConsoleServer.class);

    private final HttpConfig config;
    private final StatusView status;
    private final PrometheusMeterRegistry metrics;
    private final Clock clock;
    private final Auth auth;
    private final List<ApiRoutes> apiRoutes;
    private final EventStream.Sources liveSources;
    private EventStream events;
    private List<Endpoint> endpoints = List.of();
    private Map<String, Object> openApi = Map.of();
    private Javalin app;

    public ConsoleServer(HttpConfig config, StatusView status, PrometheusMeterRegistry metrics, Clock clock, Auth auth,
                         List<ApiRoutes> apiRoutes, EventStream.Sources liveSources) {
        this.config = Objects.requireNonNull(config, "config");
        this.status = Objects.requireNonNull(status, "status");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.auth = Objects.requireNonNull(auth, "auth");
        this.apiRoutes = List.copyOf(apiRoutes);
        this.liveSources = Objects.requireNonNull(liveSources, "liveSources");
    }

    @Override
    public String name() {
        return "http";
    }

    /** The JSON mapper every API response and event is written with: the wire format in one place. */
    public static ObjectMapper jsonMapper() {
        return new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .registerModule(new Jdk8Module())
                .registerModule(CoreJson.module())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }

    @Override
    public void start() {
        ObjectMapper json = jsonMapper();
        events = new EventStream(auth.authenticator(), liveSources, json);
        app = Javalin.create(cfg -> configure(cfg, json));
        events.start();
        try {
            app.start();
        } catch (RuntimeException e) {
            events.stop();
            throw e;
        }
        log.info("Console listening on {}://{}:{}/ ({} API endpoints)", config.tls().isPresent() ? "https" : "http",
                config.bindAddress(), app.port(), endpoints.size());
    }

    private void configure(JavalinConfig cfg, ObjectMapper json) {
        cfg.startup.showJavalinBanner = false;
        cfg.startup.showOldJavalinVersionWarning = false;
        cfg.jsonMapper(new JavalinJackson(json, false));
        cfg.jetty.host = config.bindAddress();
        cfg.jetty.port = config.port();
        config.tls().ifPresent(tls -> cfg.jetty.addConnector((server, http) ->
                HttpsConnector.create(server, http, tls, config.bindAddress(), config.port())));
        UiFiles.load(ConsoleServer.class.getClassLoader()).register(cfg.routes);
        VendorFiles.register(cfg.routes);
        cfg.routes.before(ctx -> securityHeaders(ctx));
        cfg.routes.before(AllowedHosts.of(config)::check);
        cfg.routes.exception(ApiError.class, (error, ctx) -> answer(ctx, error));
        cfg.routes.exception(RequestFailure.class, (failure, ctx) -> answer(ctx, ApiError.of(failure)));
        cfg.routes.exception(AccountException.class, (error, ctx) -> {
            int code = statusOf(error);
            if (error instanceof ThrottledException throttled) {
                ctx.header("Retry-After", Long.toString(Math.max(1, (throttled.retryAfter().toMillis() + 999) / 1000)));
            }
            ctx.status(code);
            ctx.json(new ApiError.Body(code, error.getMessage()));
        });
        cfg.routes.exception(Exception.class, (error, ctx) -> {
            // not an expected failure: a bug. The operator gets a clear line, the log the stack trace.
            log.error("{} {} failed: {}", ctx.method(), ctx.path(), error.toString(), error);
            ctx.status(500);
            ctx.json(new ApiError.Body(500, "internal error: " + error + " (details in the gateway log)"));
        });
        Api api = new Api(cfg.routes, new RequestGuard(auth.authenticator(), auth.accessRefusals()));
        api.get("/health", Access.PUBLIC,
                "Readiness, degraded parts and component states (200 when READY or DEGRADED, 503 otherwise)",
                Reply.json(HealthReport.class).orAnswers(503, "starting, stopping or failed: the same report",
                        HealthReport.class), this::health);
        api.get("/metrics", config.publicMetrics() ? Access.PUBLIC : Access.to(Permission.VIEW_CONNECTIONS),
                "Prometheus metrics", Reply.text(PROMETHEUS_TEXT), this::metrics);
        new SessionRoutes(auth, new SessionCookie(config.tls().isPresent())).register(api);
        new UserRoutes(auth).register(api);
        for (ApiRoutes routes : apiRoutes) {
            routes.register(api);
        }
        events.register(api);
        api.get("/api/v1/openapi.json", Access.PUBLIC, "This description of the API", Reply.json(Map.class),
                ctx -> openApi);
        endpoints = api.endpoints();
        openApi = OpenApi.document(endpoints, status.info().version());
    }

    private static void answer(Context ctx, ApiError error) {
        ctx.status(error.status());
        ctx.json(error.body());
    }

    private static void securityHeaders(Context ctx) {
        ctx.header("X-Content-Type-Options", "nosniff");
        ctx.header("X-Frame-Options", "DENY");
        ctx.header("Referrer-Policy", "no-referrer");
        ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        if (ctx.path().startsWith("/api/")) {
            ctx.header("Cache-Control", "no-store");
        }
    }

    static int statusOf(AccountException error) {
        if (error instanceof UserNotFoundException || error instanceof TokenNotFoundException) {
            return 404;
        }
        if (error instanceof UserExistsException || error instanceof LastAdminException) {
            return 409;
        }
        if (error instanceof NotPermittedException) {
            return 403;
        }
        if (error instanceof ThrottledException) {
            return 429;
        }
        if (error instanceof SetupRefusedException) {
            return error.getMessage().startsWith("no setup is pending") ? 409 : 403;
        }
        if (error instanceof PasswordRejectedException || error instanceof InvalidNameException) {
            return 400;
        }
        return 400;
    }

    /** The port actually bound: differs from the configured one when that was 0. */
    public int port() {
        if (app == null) {
            throw new IllegalStateException("the console server has not been started");
        }
        return app.port();
    }

    /** Every endpoint of the API with the access it needs, as registered at start. */
    public List<Endpoint> endpoints() {
        return endpoints;
    }

    @Override
    public void stop() {
        if (events != null) {
            events.stop();
        }
        if (app != null) {
            app.stop();
            app = null;
        }
    }

    /** The report, with 503 instead of 200 while the gateway is not running. */
    private HealthReport health(Context ctx) {
        HealthReport report = HealthReport.of(status, clock.instant());
        ctx.header("Cache-Control", "no-store");
        ctx.status(report.running() ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE);
        return report;
    }

    private Void metrics(Context ctx) {
        ctx.header("Cache-Control", "no-store");
        ctx.contentType(PROMETHEUS_TEXT);
        ctx.result(metrics.scrape());
        return null;
    }
}
