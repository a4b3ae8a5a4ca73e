package io.qubiq.app.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * The console's API as a script or another system uses it: signed in with a session cookie and
 * its CSRF token, or with a Bearer token. The browser tests use it to prepare users and to check
 * that the server itself refuses what the page hides.
 *
 * <p>Threading: one test thread at a time.
 */
final class ConsoleApiClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final String base;
    private final Optional<String> csrfToken;
    private final Optional<String> bearer;

    private ConsoleApiClient(HttpClient http, String base, Optional<String> csrfToken, Optional<String> bearer) {
        this.http = http;
        this.base = base;
        this.csrfToken = csrfToken;
        this.bearer = bearer;
    }

    /** Signs in through {@code POST /api/v1/session}; fails unless the gateway answers 200. */
    static ConsoleApiClient signIn(String base, String user, String password) {
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        ConsoleApiClient anonymous = new ConsoleApiClient(http, base, Optional.empty(), Optional.empty());
        HttpResponse<String> answer = anonymous.send("POST", "/api/v1/session",
                JSON.createObjectNode().put("user", user).put("password", password).toString());
        if (answer.statusCode() != 200) {
            throw new AssertionError("sign-in of " + user + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return new ConsoleApiClient(http, base, Optional.of(json(answer).get("csrfToken").asText()), Optional.empty());
    }

    /** A client that sends {@code Authorization: Bearer <token>} and no cookie. */
    static ConsoleApiClient withToken(String base, String token) {
        return new ConsoleApiClient(HttpClient.newHttpClient(), base, Optional.empty(), Optional.of(token));
    }

    HttpResponse<String> get(String path) {
        return send("GET", path, null);
    }

    HttpResponse<String> post(String path, String body) {
        return send("POST", path, body);
    }

    /** GET that must answer 200, parsed. */
    JsonNode read(String path) {
        HttpResponse<String> answer = get(path);
        if (answer.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return json(answer);
    }

    /** POST that must answer 2xx, parsed (or an empty object for an empty answer). */
    JsonNode write(String path, String body) {
        HttpResponse<String> answer = post(path, body);
        if (answer.statusCode() / 100 != 2) {
            throw new AssertionError("POST " + path + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return answer.body().isEmpty() ? JSON.createObjectNode() : json(answer);
    }

    HttpResponse<String> send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Accept", "application/json");
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        csrfToken.ifPresent(token -> request.header("X-CSRF-Token", token));
        bearer.ifPresent(token -> request.header("Authorization", "Bearer " + token));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }

    static JsonNode json(HttpResponse<String> answer) {
        try {
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON (" + answer.statusCode() + "): " + answer.body(), e);
        }
    }
}
