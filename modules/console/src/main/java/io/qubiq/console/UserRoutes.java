package io.qubiq.console;

import io.javalin.http.Context;
import io.qubiq.auth.ApiToken;
import io.qubiq.auth.ApiTokens;
import io.qubiq.auth.Auth;
import io.qubiq.auth.Permission;
import io.qubiq.auth.Principal;
import io.qubiq.auth.Role;
import io.qubiq.auth.UserAccount;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * User management ("Manage users") and one's own API tokens (any signed-in user):
 * {@code GET/POST /api/v1/users}, {@code PUT/DELETE /api/v1/users/{name}}, {@code GET /api/v1/roles},
 * {@code GET/POST /api/v1/tokens}, {@code DELETE /api/v1/tokens/{id}}. Every change is audited by the
 * auth module with the acting user and the remote address; refusals map to 400 (bad name or password),
 * 404 (no such user or token), 409 (exists already, last administrator) and 403 (not permitted, and any
 * {@code POST /api/v1/tokens} made with an API token). Setting a user's password revokes their API tokens.
 */
final class UserRoutes implements ApiRoutes {

    record UserView(String name, List<String> roles, boolean disabled, Instant created, Instant passwordChanged) {
        static UserView of(UserAccount account) {
            return new UserView(account.name(), account.roles(), account.disabled(), account.created(),
                    account.passwordChanged());
        }
    }

    record RoleView(String name, List<String> permissions, boolean builtIn) {
    }

    record TokenView(String id, String owner, String name, Instant created, Optional<Instant> lastUsed,
                     Optional<Instant> expires) {
        static TokenView of(ApiToken token) {
            return new TokenView(token.id(), token.owner(), token.name(), token.created(), token.lastUsed(),
                    token.expires());
        }
    }

    /** Shown once: the secret is not available again. */
    record CreatedToken(String id, String name, String token, Optional<Instant> expires) {
    }

    private static final Access MANAGE = Access.to(Permission.MANAGE_USERS);

    private final Auth auth;

    UserRoutes(Auth auth) {
        this.auth = auth;
    }

    @Override
    public void register(Api api) {
        api.get("/api/v1/users", MANAGE, "Every user with roles and state", Reply.jsonList(UserView.class), ctx ->
                auth.administration().listUsers(RequestGuard.principal(ctx)).stream().map(UserView::of).toList());
        api.post("/api/v1/users", MANAGE, "Create a user", Reply.json(UserView.class).created()
                .failing(RequestFailure.InvalidRequest.class).orAnswers(409, "a user of that name exists"), this::create);
        api.put("/api/v1/users/{name}", MANAGE, "Change a user's roles, password or disabled state",
                Reply.json(UserView.class).failing(RequestFailure.InvalidRequest.class, RequestFailure.NotFound.class)
                        .orAnswers(404, "no such user").orAnswers(409, "the last administrator must stay one"),
                this::update);
        api.delete("/api/v1/users/{name}", MANAGE, "Delete a user, their sessions and API tokens",
                Reply.noContent().orAnswers(404, "no such user").orAnswers(409, "the last administrator"), ctx -> {
                    auth.administration().deleteUser(RequestGuard.principal(ctx), RequestGuard.from(ctx),
                            ctx.pathParam("name"));
                    return null;
                });
        api.get("/api/v1/roles", MANAGE, "Every role and the permissions it grants", Reply.jsonList(RoleView.class),
                ctx -> auth.roles().all().stream().map(role -> new RoleView(role.name(),
                        PermissionNames.of(role.permissions()), Role.BUILT_IN.contains(role))).toList());
        api.get("/api/v1/tokens", Access.SIGNED_IN, "One's own API tokens (never their secrets)",
                Reply.jsonList(TokenView.class), ctx -> {
                    Principal me = RequestGuard.principal(ctx);
                    return auth.administration().listTokens(me, me.user()).stream().map(TokenView::of).toList();
                });
        api.post("/api/v1/tokens", Access.SIGNED_IN, "Create an API token acting as oneself; the secret is shown once",
                Reply.json(CreatedToken.class).created().failing(RequestFailure.InvalidRequest.class)
                        .orAnswers(403, "the request was authenticated by an API token: tokens are created from a"
                                + " signed-in session"), this::createToken);
        api.delete("/api/v1/tokens/{id}", Access.SIGNED_IN, "Revoke an API token",
                Reply.noContent().orAnswers(404, "no such token"), ctx -> {
                    auth.administration().revokeToken(RequestGuard.principal(ctx), RequestGuard.from(ctx),
                            ctx.pathParam("id"));
                    return null;
                });
    }

    private UserView create(Context ctx) {
        JsonBody body = JsonBody.of(ctx, "{\"name\": \"alice\", \"password\": \"...\", \"roles\": [\"operator\"]}");
        String name = body.text("name");
        String password = body.text("password");
        List<String> roles = body.optionalTextList("roles").orElse(List.of());
        UserAccount created = auth.administration().createUser(RequestGuard.principal(ctx), RequestGuard.from(ctx),
                name, password, roles);
        return UserView.of(created);
    }

    /**
     * Reads the whole body and checks the role names first, then applies password, roles and disabled in
     * that order; a refusal stops the rest (the last administrator cannot lose the role or be disabled).
     */
    private UserView update(Context ctx) {
        JsonBody body = JsonBody.of(ctx, "{\"roles\": [\"viewer\"], \"disabled\": false, \"password\": \"...\"}");
        Optional<List<String>> roles = body.optionalTextList("roles");
        Optional<Boolean> disabled = body.optionalBoolean("disabled");
        Optional<String> password = body.optionalText("password");
        if (roles.isEmpty() && disabled.isEmpty() && password.isEmpty()) {
            throw new RequestFailure.InvalidRequest("nothing to change: send at least one of \"roles\", \"disabled\", \"password\"");
        }
        String name = ctx.pathParam("name");
        Principal actor = RequestGuard.principal(ctx);
        String from = RequestGuard.from(ctx);
        roles.flatMap(r -> auth.roles().firstUnknown(r)).ifPresent(unknown -> {
            throw new RequestFailure.InvalidRequest("unknown role '" + unknown + "'; GET /api/v1/roles lists them");
        });
        password.ifPresent(p -> auth.administration().setPassword(actor, from, name, p));
        roles.ifPresent(r -> auth.administration().setRoles(actor, from, name, r));
        disabled.ifPresent(d -> auth.administration().setDisabled(actor, from, name, d));
        return UserView.of(auth.users().find(name).orElseThrow(() -> new RequestFailure.NotFound("no user '" + name + "'")));
    }

    private CreatedToken createToken(Context ctx) {
        JsonBody body = JsonBody.of(ctx, "{\"name\": \"historian export\", \"expires\": \"2027-01-01T00:00:00Z\"}");
        String name = body.text("name");
        Optional<Instant> expires = body.optionalText("expires").map(UserRoutes::instant);
        Principal me = RequestGuard.principal(ctx);
        ApiTokens.Created created = auth.administration().createToken(me, RequestGuard.from(ctx), me.user(), name,
                expires);
        return new CreatedToken(created.token().id(), created.token().name(), created.secret(),
                created.token().expires());
    }

    private static Instant instant(String raw) {
        try {
            return Instant.parse(raw);
        } catch (DateTimeParseException e) {
            throw new RequestFailure.InvalidRequest("\"expires\" must be an ISO-8601 instant such as 2027-01-01T00:00:00Z, got '"
                    + raw + "'");
        }
    }
}
