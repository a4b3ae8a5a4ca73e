package io.qubiq.console;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.sse.SseClient;
import io.javalin.http.sse.SseHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * How route groups register their endpoints: each with the {@link Access} it needs, a one-line
 * summary and its {@link Reply} (what it answers and which failures it may answer instead). Every
 * handler is wrapped so that {@link RequestGuard} runs first (sign-in, permission, CSRF), for {@code HEAD}
 * of a GET endpoint too, and every endpoint is recorded, so the OpenAPI description and the permission tests cover exactly the routes
 * that exist. There is no way to register a route without declaring its access and its answer.
 *
 * <p>A handler answers with the value its reply declares, which is written as JSON; it answers null
 * when it wrote the response itself. A {@link RequestFailure} of a kind the reply does not declare is
 * a bug in the declaration: with assertions enabled (the tests) it fails the request.
 *
 * <p>Used only while the console starts, on the lifecycle thread.
 */
public final class Api {

    /** An endpoint's handler: answers with the body its {@link Reply} declares. */
    @FunctionalInterface
    public interface Answer<T> {
        T answer(Context ctx) throws Exception;
    }

    private final RoutesConfig routes;
    private final RequestGuard guard;
    private final List<Endpoint> endpoints = new ArrayList<>();

    Api(RoutesConfig routes, RequestGuard guard) {
        this.routes = routes;
        this.guard = guard;
    }

    public <T> void get(String path, Access access, String summary, Reply<T> reply, Answer<T> answer) {
        Endpoint endpoint = new Endpoint("GET", path, access, summary, reply);
        routes.get(path, guarded(endpoint, reply, answer));
        routes.head(path, headOf(endpoint));
    }

    public <T> void post(String path, Access access, String summary, Reply<T> reply, Answer<T> answer) {
        routes.post(path, guarded(new Endpoint("POST", path, access, summary, reply), reply, answer));
    }

    public <T> void put(String path, Access access, String summary, Reply<T> reply, Answer<T> answer) {
        routes.put(path, guarded(new Endpoint("PUT", path, access, summary, reply), reply, answer));
    }

    public <T> void delete(String path, Access access, String summary, Reply<T> reply, Answer<T> answer) {
        routes.delete(path, guarded(new Endpoint("DELETE", path, access, summary, reply), reply, answer));
    }

    /** A server-sent event stream; the guard runs before the stream opens. */
    public void sse(String path, Access access, String summary, Consumer<SseClient> client) {
        Endpoint endpoint = new Endpoint("GET", path, access, summary, Reply.text("text/event-stream"));
        endpoints.add(endpoint);
        Handler stream = new SseHandler(client);
        routes.get(path, ctx -> {
            guard.check(ctx, endpoint);
            stream.handle(ctx);
        });
        routes.head(path, headOf(endpoint));
    }

    /** Every endpoint registered so far, in registration order. */
    public List<Endpoint> endpoints() {
        return List.copyOf(endpoints);
    }

    /**
     * {@code HEAD} of a GET endpoint: the same guard (401, 403 or 503 as GET would answer), then 200 without
     * a body and without running the handler. Without it Javalin answers HEAD from the GET route's
     * existence alone, guard or no guard.
     */
    private Handler headOf(Endpoint endpoint) {
        return ctx -> {
            guard.check(ctx, endpoint);
            ctx.status(200);
        };
    }

    private <T> Handler guarded(Endpoint endpoint, Reply<T> reply, Answer<T> answer) {
        endpoints.add(endpoint);
        return ctx -> {
            guard.check(ctx, endpoint);
            T body;
            try {
                body = answer.answer(ctx);
            } catch (RequestFailure failure) {
                assert reply.failures().contains(failure.getClass()) : endpoint.method() + " " + endpoint.path()
                        + " answered " + failure.getClass().getSimpleName() + ", which its Reply does not declare";
                throw failure;
            }
            reply.send(ctx, body);
        };
    }
}
