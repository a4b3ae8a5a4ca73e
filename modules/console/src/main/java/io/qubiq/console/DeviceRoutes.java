package io.qubiq.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.qubiq.auth.Permission;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.tag.TagPath;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Device connections and tags:
 * <ul>
 *   <li>{@code GET /api/v1/connections}: every device connection with its health and counters;
 *   <li>{@code GET /api/v1/connections/{id}/browse?node=...}: one level of its address space;
 *   <li>{@code GET /api/v1/connections/{id}/certificates}: the rejected and trusted server
 *       certificates of an OPC UA connection (409 for a connection without certificates);
 *   <li>{@code POST /api/v1/connections/{id}/certificates/{thumbprint}/trust}: moves a rejected
 *       server certificate to trusted; the connection connects on its next attempt, which starts
 *       at once (404 for an unknown thumbprint, 400 for one that is not 40 hex digits);
 *   <li>{@code GET /api/v1/tags}, {@code GET /api/v1/tags/{path}}: latest values;
 *   <li>{@code POST /api/v1/tags/{path}/write} with {@code {"value": ...}}: a write straight to the
 *       device, answered with the device's verdict (200 with {@code accepted: false} when the device
 *       refused), 409 for a tag that is not writable, 503 while disconnected, 504 on a timeout.
 * </ul>
 * Reading needs "View connections" (tags: "View tags"); trusting a certificate "Edit connections";
 * writing a tag "Write tags". Trusts and writes are audited with the signed-in user.
 */
public final class DeviceRoutes implements ApiRoutes {

    static final long WAIT_SECONDS = 30;

    private final DeviceAccess devices;
    private final TagView tags;
    private final ObjectMapper json = new ObjectMapper();

    public DeviceRoutes(DeviceAccess devices, TagView tags) {
        this.devices = devices;
        this.tags = tags;
    }

    @Override
    public void register(Api api) {
        Access view = Access.to(Permission.VIEW_CONNECTIONS);
        Access viewTags = Access.to(Permission.VIEW_TAGS);
        api.get("/api/v1/connections", view, "Every device connection with health and counters",
                ctx -> ctx.json(devices.devices().stream().map(ApiJson.Device::of).toList()));
        api.get("/api/v1/connections/{id}", view, "One device connection", ctx -> ctx.json(ApiJson.Device.of(
                devices.device(ctx.pathParam("id")).orElseThrow(() ->
                        ApiError.notFound("no device connection '" + ctx.pathParam("id") + "'")))));
        api.get("/api/v1/connections/{id}/browse", view, "One level of a device's address space", this::browse);
        api.get("/api/v1/connections/{id}/certificates", view, "Rejected and trusted server certificates", ctx -> {
            String id = ctx.pathParam("id");
            DeviceAccess.Certificates listed = devices.certificates(id);
            ctx.json(new ApiJson.Certificates(id, listed.directory(), listed.certificates()));
        });
        api.post("/api/v1/connections/{id}/certificates/{thumbprint}/trust", Access.to(Permission.EDIT_CONNECTIONS),
                "Trust a rejected server certificate", ctx -> {
                    String id = ctx.pathParam("id");
                    DeviceAccess.Certificate trusted = devices.trust(id, ctx.pathParam("thumbprint"),
                            RequestGuard.principal(ctx).user(), RequestGuard.from(ctx));
                    ctx.json(new ApiJson.Trusted(id, trusted, "trusted; connection " + id
                            + " uses it from its next connection attempt, which starts now if it is down"));
                });
        api.get("/api/v1/tags", viewTags, "The latest value of every tag",
                ctx -> ctx.json(tags.latest().stream().map(ApiJson.Tag::of).toList()));
        api.post("/api/v1/tags/<path>/write", Access.to(Permission.WRITE_TAGS), "Write a value to a device", this::write);
        api.get("/api/v1/tags/<path>", viewTags, "The latest value of one tag", ctx -> {
            TagPath path = tagPath(ctx.pathParam("path"));
            ctx.json(ApiJson.Tag.of(tags.latest(path)
                    .orElseThrow(() -> ApiError.notFound("tag " + path + " has no value yet (or does not exist)"))));
        });
    }

    private void browse(Context ctx) throws Exception {
        String node = Optional.ofNullable(ctx.queryParam("node")).orElse("");
        ctx.json(await(devices.browse(ctx.pathParam("id"), node), "browse " + node));
    }

    private void write(Context ctx) throws Exception {
        TagPath path = tagPath(ctx.pathParam("path"));
        JsonNode body;
        try {
            body = json.readTree(ctx.body());
        } catch (Exception e) {
            throw ApiError.badRequest("the body must be JSON like {\"value\": 42.5}: " + e.getMessage());
        }
        if (body == null || !body.isObject() || !body.has("value") || body.get("value").isContainerNode()) {
            throw ApiError.badRequest("the body must be a JSON object with a scalar \"value\", like {\"value\": 42.5}");
        }
        Object value = scalar(body.get("value"));
        TagWriteResult result = await(devices.write(path, value, RequestGuard.principal(ctx).user(),
                RequestGuard.from(ctx)),
                "write to " + path);
        ctx.json(new ApiJson.WriteResult(result.tag().value(), result.accepted(), result.status().label(),
                String.format("0x%08X", result.status().code()), result.message()));
    }

    private static Object scalar(JsonNode node) {
        if (node.isNull()) {
            throw ApiError.badRequest("\"value\" must not be null");
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToInt() ? (Object) node.intValue() : (Object) node.longValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        return node.asText();
    }

    static TagPath tagPath(String raw) {
        Optional<String> problem = TagPath.validate(raw);
        if (problem.isPresent()) {
            throw ApiError.badRequest("invalid tag path '" + raw + "': " + problem.get());
        }
        return TagPath.of(raw);
    }

    private static <T> T await(java.util.concurrent.CompletableFuture<T> future, String what) throws Exception {
        try {
            return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new ApiError(504, what + ": no answer from the device within " + WAIT_SECONDS + " s");
        } catch (ExecutionException | CompletionException e) {
            throw translate(e.getCause() != null ? e.getCause() : e, what);
        }
    }

    private static RuntimeException translate(Throwable cause, String what) {
        if (cause instanceof ApiError error) {
            return error;
        }
        if (cause instanceof TransientException) {
            return new ApiError(503, what + ": " + cause.getMessage());
        }
        if (cause instanceof UnknownOutcomeException) {
            return new ApiError(504, what + ": " + cause.getMessage());
        }
        if (cause instanceof PermanentException) {
            return new ApiError(409, what + ": " + cause.getMessage());
        }
        if (cause instanceof GatewayException) {
            return new ApiError(400, what + ": " + cause.getMessage());
        }
        return new ApiError(500, what + " failed: " + cause);
    }
}
