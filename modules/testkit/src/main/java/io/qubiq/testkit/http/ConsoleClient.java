package io.qubiq.testkit.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test's HTTP client for the gateway's API, as a browser or a script would use it: signed in with a
 * session (cookie plus the {@code X-CSRF-Token} header on state-changing requests), with an API token
 * ({@code Authorization: Bearer}), or anonymous. Plain JDK HTTP; no knowledge of the server's classes.
 * One client is one caller; not for concurrent use.
 */
public final class ConsoleClient {

    private static final Pattern COOKIE = Pattern.compile("qubiq_session=([^;]*)");
    private static final Pattern CSRF = Pattern.compile("\"csrfToken\":\"([^\"]+)\"");

    private final HttpClient http;
    private final String base;
    private Optional<String> sessionId = Optional.empty();
    private Optional<String> csrfToken = Optional.empty();
    private Optional<String> bearer = Optional.empty();
    private boolean sendCsrf = true;

    private ConsoleClient(HttpClient http, String base) {
        this.http = http;
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /** Not signed in. {@code base} is like {@code http://127.0.0.1:8080}. */
    public static ConsoleClient anonymous(String base) {
        return new ConsoleClient(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(), base);
    }

    public static ConsoleClient anonymous(HttpClient http, String base) {
        return new ConsoleClient(http, base);
    }

    /** Signs in with a password; fails the test with the server's answer if that is refused. */
    public static ConsoleClient signedIn(String base, String user, String password) {
        ConsoleClient client = anonymous(base);
        HttpResponse<String> answer = client.signIn(user, password);
        if (answer.statusCode() != 200) {
            throw new AssertionError("sign-in of " + user + " refused: " + answer.statusCode() + " " + answer.body());
        }
        return client;
    }

    /** Authenticates every request with this API token. */
    public static ConsoleClient withToken(String base, String token) {
        ConsoleClient client = anonymous(base);
        client.bearer = Optional.of(token);
        return client;
    }

    /** {@code POST /api/v1/session}; on success keeps the session cookie and CSRF token. */
    public HttpResponse<String> signIn(String user, String password) {
        HttpResponse<String> answer = send("POST", "/api/v1/session", "{\"user\":" + quote(user) + ",\"password\":"
                + quote(password) + "}");
        if (answer.statusCode() == 200) {
            answer.headers().allValues("Set-Cookie").stream().map(COOKIE::matcher).filter(Matcher::find).findFirst()
                    .ifPresent(m -> sessionId = Optional.of(m.group(1)));
            Matcher csrf = CSRF.matcher(answer.body());
            csrfToken = csrf.find() ? Optional.of(csrf.group(1)) : Optional.empty();
        }
        return answer;
    }

    /** Leaves the CSRF header off state-changing requests from now on (to test that they are refused). */
    public ConsoleClient withoutCsrf() {
        sendCsrf = false;
        return this;
    }

    public Optional<String> sessionId() {
        return sessionId;
    }

    public Optional<String> csrfToken() {
        return csrfToken;
    }

    public HttpResponse<String> get(String path) {
        return send("GET", path, null);
    }

    /** A GET as a console page makes it on a timer ({@code X-Qubiq-Background: 1}): not use of the session. */
    public HttpResponse<String> getInBackground(String path) {
        return send("GET", path, null, "application/json", java.util.Map.of("X-Qubiq-Background", "1"));
    }

    public HttpResponse<String> post(String path, String json) {
        return send("POST", path, json);
    }

    public HttpResponse<String> put(String path, String json) {
        return send("PUT", path, json);
    }

    public HttpResponse<String> delete(String path) {
        return send("DELETE", path, null);
    }

    /** Any method; a non-null body is sent as JSON. */
    public HttpResponse<String> send(String method, String path, String json) {
        return send(method, path, json, "application/json");
    }

    /** Any method with a body of the given media type (none when {@code body} is null). */
    public HttpResponse<String> send(String method, String path, String body, String contentType) {
        return send(method, path, body, contentType, java.util.Map.of());
    }

    private HttpResponse<String> send(String method, String path, String body, String contentType,
                                      java.util.Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        headers.forEach(request::header);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", contentType);
        }
        sessionId.ifPresent(id -> request.header("Cookie", "qubiq_session=" + id));
        bearer.ifPresent(token -> request.header("Authorization", "Bearer " + token));
        if (sendCsrf && !method.equals("GET")) {
            csrfToken.ifPresent(token -> request.header("X-CSRF-Token", token));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(method + " " + path + " interrupted", e);
        }
    }

    /**
     * Opens a server-sent event stream ({@code Accept: text/event-stream}) with this client's credentials;
     * the caller reads the body's lines and closes it.
     */
    public HttpResponse<java.io.InputStream> openStream(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Accept", "text/event-stream");
        sessionId.ifPresent(id -> request.header("Cookie", "qubiq_session=" + id));
        bearer.ifPresent(token -> request.header("Authorization", "Bearer " + token));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("GET " + path + " interrupted", e);
        }
    }

    /** A JSON string literal. */
    public static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
