package io.qubiq.console;

import io.qubiq.auth.Permission;
import java.util.Optional;

/**
 * {@code POST /api/v1/connections/test} (Edit connections): "Test connection". The body is
 * {@code {"id": "plc1"}} to test a configured connection as it runs, or
 * {@code {"id": "plc2", "value": {"opcua": {...}}}} to test settings shaped as the configuration value at
 * {@code devices.<id>} (the id is optional for a new connection). Nothing is added or restarted.
 * Statuses: 200 with the probe's findings, whether the probe succeeded or not ({@code ok}); 422 when
 * the settings are not a valid section, every problem with its key path; 404 for an unknown id given
 * alone; 400 for a body of another shape.
 */
public final class ConnectionTestRoutes implements ApiRoutes {

    private static final String SHAPE = "{\"id\": \"plc1\"} or {\"id\": \"plc2\", \"value\": {\"opcua\":"
            + " {\"endpoint_url\": \"opc.tcp://host:4840\", \"tags\": []}}}";

    private final ConnectionTests tests;
    private final String path;
    private final String what;

    /** {@code POST /api/v1/connections/test}, for device connections. */
    public ConnectionTestRoutes(ConnectionTests tests) {
        this(tests, "/api/v1/connections/test", "Test a device connection now: reachable, authenticated, certificate"
                + " trusted, latency; adds and restarts nothing");
    }

    /**
     * The same test at {@code path} ({@code POST /api/v1/outbound/test} for outbound connections, with
     * {@code "value"} shaped as the configuration value at {@code outbound.<id>}).
     */
    public ConnectionTestRoutes(ConnectionTests tests, String path, String what) {
        this.tests = tests;
        this.path = path;
        this.what = what;
    }

    @Override
    public void register(Api api) {
        api.post(path, Access.to(Permission.EDIT_CONNECTIONS), what,
                Reply.json(ConnectionTests.Tested.class)
                        .failing(RequestFailure.InvalidRequest.class, RequestFailure.NotFound.class,
                                RequestFailure.Fault.class)
                        .orAnswers(422, "the settings are not a valid connection section: every problem with its key"
                                + " path; nothing was probed", ConnectionTests.Invalid.class),
                ctx -> {
                    JsonBody body = JsonBody.of(ctx, SHAPE);
                    Optional<String> id = body.optionalText("id");
                    Optional<Object> section = body.has("value") ? Optional.ofNullable(body.anyValue("value"))
                            : Optional.empty();
                    if (id.isEmpty() && section.isEmpty()) {
                        throw new RequestFailure.InvalidRequest("name a connection or send its settings: " + SHAPE);
                    }
                    ConnectionTests.Outcome outcome = tests.test(id, section);
                    if (outcome instanceof ConnectionTests.Tested tested) {
                        return tested;
                    }
                    ctx.status(422).json(outcome);
                    return null;
                });
    }
}
