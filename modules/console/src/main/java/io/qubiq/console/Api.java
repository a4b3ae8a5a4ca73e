package io.qubiq.console;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.sse.SseClient;
import io.javalin.http.sse.SseHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How route groups register their endpoints: each with the {@link Access} it needs and a one-line
 * summary. Every handler is wrapped so that {@link RequestGuard} runs first (sign-in, permission, CSRF),
 * and every endpoint is recorded, so the OpenAPI description and the permission tests cover exactly
 * the routes that exist. There is no way to register a route without declaring its access.
 *
 * <p>Used only while the console starts, on the lifecycle thread.
 */
public final class Api {

    private final RoutesConfig routes;
    private final RequestGuard guard;
    private final List<Endpoint> endpoints = new ArrayList<>();

    Api(RoutesConfig routes, RequestGuard guard) {
        this.routes = routes;
        this.guard = guard;
    }

    public void get(String path, Access access, String summary, Handler handler) {
        routes.get(path, guarded(new Endpoint("GET", path, access, summary), handler));
    }

    public void post(String path, Access access, String summary, Handler handler) {
        routes.post(path, guarded(new Endpoint("POST", path, access, summary), handler));
    }

    public void put(String path, Access access, String summary, Handler handler) {
        routes.put(path, guarded(new Endpoint("PUT", path, access, summary), handler));
    }

    public void delete(String path, Access access, String summary, Handler handler) {
        routes.delete(path, guarded(new Endpoint("DELETE", path, access, summary), handler));
    }

    /** A server-sent event stream; the guard runs before the stream opens. */
    public void sse(String path, Access access, String summary, Consumer<SseClient> client) {
        routes.get(path, guarded(new Endpoint("GET", path, access, summary), new SseHandler(client)));
    }

    /** Every endpoint registered so far, in registration order. */
    public List<Endpoint> endpoints() {
        return List.copyOf(endpoints);
    }

    private Handler guarded(Endpoint endpoint, Handler handler) {
        endpoints.add(endpoint);
        return ctx -> {
            guard.check(ctx, endpoint);
            handler.handle(ctx);
        };
    }
}
