package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.auth.Permission;
import io.qubiq.auth.Role;
import io.qubiq.testkit.http.ConsoleClient;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every endpoint the console registers, called by every kind of caller: anonymous, a signed-in user of
 * each built-in role, a user without roles, and an administrator's API token. The expected answer comes
 * from the endpoint's declared access and the role table, so an endpoint added tomorrow is covered the
 * moment it is registered.
 */
class EndpointPermissionTest {

    @TempDir
    static Path dir;
    static ConsoleFixture console;
    static final Map<String, Set<Permission>> GRANTS = Map.of(
            "admin", Role.ADMIN.permissions(), "engineer", Role.ENGINEER.permissions(),
            "operator", Role.OPERATOR.permissions(), "viewer", Role.VIEWER.permissions(), "nobody", Set.of());

    @BeforeAll
    static void start() throws Exception {
        console = ConsoleFixture.start(dir);
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    @Test
    void theApiHasTheEndpointsTheIssueNamesAndEachDeclaresItsAccess() {
        Set<String> routes = console.server.endpoints().stream().map(e -> e.method() + " " + e.path())
                .collect(Collectors.toSet());
        assertThat(routes).contains("GET /api/v1/store-forward", "POST /api/v1/store-forward/{connection}/quarantine/retry",
                "POST /api/v1/store-forward/{connection}/quarantine/drop", "GET /api/v1/connections",
                "GET /api/v1/tags", "POST /api/v1/tags/<path>/write", "GET /api/v1/history", "GET /api/v1/audit", "GET /api/v1/losses",
                "GET /api/v1/users", "GET /api/v1/roles", "GET /api/v1/events", "GET /api/v1/openapi.json",
                "POST /api/v1/session", "POST /api/v1/historian/wal/{table}/skip", "POST /api/v1/pipelines/{id}/enable",
                "GET /api/v1/config", "GET /api/v1/config/schema", "POST /api/v1/config/validate");
        List<String> publicOnes = console.server.endpoints().stream().filter(e -> e.access().isPublic())
                .map(e -> e.method() + " " + e.path()).toList();
        assertThat(publicOnes).containsExactlyInAnyOrder("GET /health", "GET /api/v1/setup", "POST /api/v1/setup",
                "POST /api/v1/session", "GET /api/v1/openapi.json");
    }

    @Test
    void anonymousCallersGet401FromEveryEndpointThatIsNotPublic() {
        List<String> wrong = new ArrayList<>();
        for (Endpoint endpoint : console.server.endpoints()) {
            if (endpoint.access().isPublic()) {
                continue;
            }
            int status = call(console.anonymous(), endpoint);
            if (status != 401) {
                wrong.add(endpoint + " answered " + status);
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void eachRoleReachesExactlyTheEndpointsItsPermissionsAllow() {
        List<String> wrong = new ArrayList<>();
        for (String user : ConsoleFixture.USERS) {
            ConsoleClient signedIn = console.as(user);
            for (Endpoint endpoint : console.server.endpoints()) {
                boolean signsOut = endpoint.method().equals("DELETE") && endpoint.path().equals("/api/v1/session");
                int status = call(signsOut ? console.as(user) : signedIn, endpoint);
                boolean allowed = endpoint.access().permission().map(GRANTS.get(user)::contains).orElse(true);
                boolean refused = status == 401 || status == 403;
                if (allowed == refused) {
                    wrong.add(user + " " + endpoint.method() + " " + endpoint.path() + " answered " + status
                            + (allowed ? " but is allowed" : " but lacks " + endpoint.access()));
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void headRunsTheSameGuardAsGetOnEveryGuardedRoute() {
        // Regression: HEAD on a guarded route answered 200 to anyone; the guard ran for GET only.
        ConsoleClient viewer = console.as("viewer");
        List<String> wrong = new ArrayList<>();
        for (Endpoint endpoint : console.server.endpoints()) {
            if (!endpoint.method().equals("GET") || endpoint.access().isPublic()) {
                continue;
            }
            String path = endpoint.path().replaceAll("\\{[a-zA-Z]+}|<[a-zA-Z]+>", "x");
            int anonymous = console.anonymous().send("HEAD", path, null).statusCode();
            if (anonymous != 401) {
                wrong.add("anonymous HEAD " + endpoint.path() + " answered " + anonymous);
            }
            boolean allowed = endpoint.access().permission().map(GRANTS.get("viewer")::contains).orElse(true);
            int status = viewer.send("HEAD", path, null).statusCode();
            if (!allowed && status != 403) {
                wrong.add("viewer HEAD " + endpoint.path() + " answered " + status + " but lacks " + endpoint.access());
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(viewer.send("HEAD", "/api/v1/users", null).statusCode()).isEqualTo(403);
        assertThat(console.anonymous().send("HEAD", "/api/v1/tags", null).statusCode()).isEqualTo(401);
    }

    @Test
    void anApiTokenCarriesItsOwnersPermissionsAndNeedsNoCsrfToken() {
        String token = createToken("viewer");
        List<String> wrong = new ArrayList<>();
        for (Endpoint endpoint : console.server.endpoints()) {
            int status = call(ConsoleClient.withToken(console.base(), token), endpoint);
            boolean allowed = endpoint.access().permission().map(GRANTS.get("viewer")::contains).orElse(true);
            if (allowed == (status == 401 || status == 403)) {
                wrong.add(endpoint.method() + " " + endpoint.path() + " answered " + status);
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void theOpenApiDescriptionListsEveryEndpointWithItsPermission() {
        String doc = console.anonymous().get("/api/v1/openapi.json").body();
        assertThat(doc).contains("\"openapi\":\"3.1.0\"");
        for (Endpoint endpoint : console.server.endpoints()) {
            assertThat(doc).as(endpoint.toString()).contains("\"" + OpenApi.openApiPath(endpoint.path()) + "\"");
        }
        assertThat(doc).contains("\"/api/v1/store-forward/{connection}/quarantine/retry\":{\"post\":{\"summary\"",
                "\"x-qubiq-permission\":\"edit_connections\"", "\"/api/v1/tags/{path}/write\"");
    }

    private static String createToken(String user) {
        HttpResponse<String> created = console.as(user).post("/api/v1/tokens", "{\"name\":\"permission test\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return created.body().replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
    }

    /**
     * Calls the endpoint with placeholder path parameters and an empty JSON object as the body; the event
     * stream is read only up to its status line.
     */
    static int call(ConsoleClient client, Endpoint endpoint) {
        String path = endpoint.path().replaceAll("\\{[a-zA-Z]+}|<[a-zA-Z]+>", "x");
        if (endpoint.path().equals("/api/v1/events")) {
            return streamStatus(client, path);
        }
        return client.send(endpoint.method(), path, endpoint.changesState() ? "{}" : null).statusCode();
    }

    private static int streamStatus(ConsoleClient client, String path) {
        HttpResponse<InputStream> answer = client.openStream(path);
        try {
            answer.body().close();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return answer.statusCode();
    }
}
