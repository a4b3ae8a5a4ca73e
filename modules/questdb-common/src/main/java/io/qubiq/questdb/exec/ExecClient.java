package io.qubiq.questdb.exec;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs SQL on QuestDB over its HTTP endpoint {@code GET /exec?query=...}, with the JDK's HTTP
 * client: the historian's table creation, history queries and the WAL supervisor's {@code
 * wal_tables()} and {@code ALTER TABLE} statements, and the testkit's reads of what tests wrote.
 * {@code /exec} takes no bind parameters, so every caller builds its SQL from validated names and
 * quoted literals ({@link SqlText}).
 *
 * <p>Threading: safe for concurrent use; each call is one request.
 */
public final class ExecClient {

    private final URI base;
    private final Duration timeout;
    private final Optional<String> authorization;
    private final HttpClient http;

    /**
     * @param baseUri       {@code http://host:port} (or https) of QuestDB's HTTP endpoint
     * @param timeout       how long one statement may take
     * @param authorization the value of the {@code Authorization} header, if QuestDB needs one
     */
    public ExecClient(URI baseUri, Duration timeout, Optional<String> authorization) {
        this(baseUri, timeout, timeout, authorization);
    }

    /**
     * @param baseUri        {@code http://host:port} (or https) of QuestDB's HTTP endpoint
     * @param connectTimeout how long making the connection may take
     * @param timeout        how long one statement may take
     * @param authorization  the value of the {@code Authorization} header, if QuestDB needs one
     */
    public ExecClient(URI baseUri, Duration connectTimeout, Duration timeout, Optional<String> authorization) {
        this.base = Objects.requireNonNull(baseUri, "baseUri");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.authorization = Objects.requireNonNull(authorization, "authorization");
        this.http = HttpClient.newBuilder().connectTimeout(Objects.requireNonNull(connectTimeout, "connectTimeout"))
                .build();
    }

    /** Plain HTTP to {@code host:port} without authentication. */
    public static ExecClient of(String hostPort, Duration timeout) {
        return new ExecClient(URI.create("http://" + hostPort), timeout, Optional.empty());
    }

    /** The {@code Authorization} value for HTTP basic authentication. */
    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Runs one statement.
     *
     * @throws SqlException unreachable (I/O failure, timeout, HTTP 5xx) or refused by QuestDB
     */
    public SqlResult exec(String sql) throws SqlException {
        HttpResponse<String> response;
        try {
            response = send(sql);
        } catch (IOException e) {
            throw new SqlException("QuestDB at " + base + " unreachable: " + e, true, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SqlException("interrupted while querying QuestDB", true, e);
        }
        if (response.statusCode() >= 500) {
            throw new SqlException("QuestDB answered HTTP " + response.statusCode() + " to: " + sql, true, null);
        }
        Object json;
        try {
            json = Json.parse(response.body());
        } catch (IllegalArgumentException e) {
            throw new SqlException("QuestDB answered HTTP " + response.statusCode() + " with no JSON to: " + sql, true,
                    e);
        }
        if (!(json instanceof Map<?, ?> answer)) {
            throw new SqlException("unexpected answer from QuestDB: " + response.body(), false, null);
        }
        if (answer.containsKey("error") || response.statusCode() != 200) {
            throw new SqlException("QuestDB refused \"" + sql + "\": " + answer.get("error"), false, null);
        }
        return SqlResult.of(answer);
    }

    /**
     * Sends one statement and returns QuestDB's answer as it came, whatever its status: for a caller
     * that reads the answer by rules of its own (a test fixture). {@link #exec} is this plus the
     * gateway's reading of the answer.
     *
     * @throws IOException when QuestDB cannot be reached or does not answer within the timeout
     */
    public HttpResponse<String> send(String sql) throws IOException, InterruptedException {
        URI uri = base.resolve("/exec?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        authorization.ifPresent(value -> request.header("Authorization", value));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
