package io.qubiq.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.qubiq.auth.Permission;
import io.qubiq.console.RequestFailure.Conflict;
import io.qubiq.console.RequestFailure.Fault;
import io.qubiq.console.RequestFailure.InvalidRequest;
import io.qubiq.console.RequestFailure.NoAnswer;
import io.qubiq.console.RequestFailure.NotFound;
import io.qubiq.console.RequestFailure.Unavailable;
import io.qubiq.core.connector.BrowseNode;
import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.connector.WriteLimitException;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.tag.TagPath;
import java.util.List;
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
 *       refused), 400 for a value outside the tag's write limits (or not a number although it has
 *       limits), naming the tag, the value and the limits, 409 for a tag that is not writable, 503
 *       while disconnected, 504 on a timeout.
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
                Reply.jsonList(ApiJson.Device.class),
                ctx -> devices.devices().stream().map(ApiJson.Device::of).toList());
        api.get("/api/v1/connections/{id}", view, "One device connection",
                Reply.json(ApiJson.Device.class).failing(NotFound.class), ctx -> ApiJson.Device.of(
                        devices.device(ctx.pathParam("id")).orElseThrow(() ->
                                new NotFound("no device connection '" + ctx.pathParam("id") + "'"))));
        api.get("/api/v1/connections/{id}/browse", view, "One level of a device's address space",
                Reply.jsonList(BrowseNode.class).failing(InvalidRequest.class, NotFound.class, Conflict.class,
                        Unavailable.class, NoAnswer.class, Fault.class), this::browse);
        api.get("/api/v1/connections/{id}/certificates", view, "Rejected and trusted server certificates",
                Reply.json(ApiJson.Certificates.class).failing(NotFound.class, Conflict.class, Fault.class), ctx -> {
                    String id = ctx.pathParam("id");
                    DeviceAccess.Certificates listed = devices.certificates(id);
                    return new ApiJson.Certificates(id, listed.directory(), listed.certificates());
                });
        api.post("/api/v1/connections/{id}/certificates/{thumbprint}/trust", Access.to(Permission.EDIT_CONNECTIONS),
                "Trust a rejected server certificate", Reply.json(ApiJson.Trusted.class)
                        .failing(InvalidRequest.class, NotFound.class, Conflict.class, Fault.class), ctx -> {
                    String id = ctx.pathParam("id");
                    DeviceAccess.Certificate trusted = devices.trust(id, ctx.pathParam("thumbprint"),
                            RequestGuard.principal(ctx).user(), RequestGuard.from(ctx));
                    return new ApiJson.Trusted(id, trusted, "trusted; connection " + id
                            + " uses it from its next connection attempt, which starts now if it is down");
                });
        api.get("/api/v1/tags", viewTags, "The latest value of every tag", Reply.jsonList(ApiJson.Tag.class),
                ctx -> tags.latest().stream().map(ApiJson.Tag::of).toList());
        api.post("/api/v1/tags/<path>/write", Access.to(Permission.WRITE_TAGS), "Write a value to a device",
                Reply.json(ApiJson.WriteResult.class).failing(InvalidRequest.class, NotFound.class, Conflict.class,
                        Unavailable.class, NoAnswer.class, Fault.class), this::write);
        api.get("/api/v1/tags/<path>", viewTags, "The latest value of one tag",
                Reply.json(ApiJson.Tag.class).failing(InvalidRequest.class, NotFound.class), ctx -> {
                    TagPath path = tagPath(ctx.pathParam("path"));
                    return ApiJson.Tag.of(tags.latest(path)
                            .orElseThrow(() -> new NotFound("tag " + path + " has no value yet (or does not exist)")));
                });
    }

    private List<BrowseNode> browse(Context ctx) throws Exception {
        String node = Optional.ofNullable(ctx.queryParam("node")).orElse("");
        return await(devices.browse(ctx.pathParam("id"), node), "browse " + node);
    }

    private ApiJson.WriteResult write(Context ctx) throws Exception {
        TagPath path = tagPath(ctx.pathParam("path"));
        JsonNode body;
        try {
            body = json.readTree(ctx.body());
        } catch (Exception e) {
            throw new InvalidRequest("the body must be JSON like {\"value\": 42.5}: " + e.getMessage());
        }
        if (body == null || !body.isObject() || !body.has("value") || body.get("value").isContainerNode()) {
            throw new InvalidRequest("the body must be a JSON object with a scalar \"value\", like {\"value\": 42.5}");
        }
        Object value = scalar(body.get("value"));
        TagWriteResult result = await(devices.write(path, value, RequestGuard.principal(ctx).user(),
                RequestGuard.from(ctx)),
                "write to " + path);
        return new ApiJson.WriteResult(result.tag().value(), result.accepted(), result.status().label(),
                String.format("0x%08X", result.status().code()), result.message());
    }

    private static Object scalar(JsonNode node) {
        if (node.isNull()) {
            throw new InvalidRequest("\"value\" must not be null");
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
            throw new InvalidRequest("invalid tag path '" + raw + "': " + problem.get());
        }
        return TagPath.of(raw);
    }

    private static <T> T await(java.util.concurrent.CompletableFuture<T> future, String what) throws Exception {
        try {
            return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new NoAnswer(what + ": no answer from the device within " + WAIT_SECONDS + " s");
        } catch (ExecutionException | CompletionException e) {
            throw translate(e.getCause() != null ? e.getCause() : e, what);
        }
    }

    private static RuntimeException translate(Throwable cause, String what) {
        if (cause instanceof RequestFailure failure) {
            return failure;
        }
        if (cause instanceof WriteLimitException) {
            return new InvalidRequest(what + ": " + cause.getMessage());
        }
        if (cause instanceof TransientException) {
            return new Unavailable(what + ": " + cause.getMessage());
        }
        if (cause instanceof UnknownOutcomeException) {
            return new NoAnswer(what + ": " + cause.getMessage());
        }
        if (cause instanceof PermanentException) {
            return new Conflict(what + ": " + cause.getMessage());
        }
        if (cause instanceof GatewayException) {
            return new InvalidRequest(what + ": " + cause.getMessage());
        }
        return new Fault(what + " failed: " + cause);
    }
}
