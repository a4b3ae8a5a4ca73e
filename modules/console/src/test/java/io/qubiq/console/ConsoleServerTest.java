package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.lifecycle.Readiness;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsoleServerTest {

    @TempDir
    static Path dir;
    static ConsoleFixture console;

    @BeforeAll
    static void start() throws Exception {
        console = new ConsoleFixture(dir, HttpConfig.plain("127.0.0.1", 0).withAllowedHosts(
                List.of("console.plant.example")), ConsoleFixture.cheap(io.qubiq.auth.AuthConfig.defaults()), true);
        Counter.builder("test_items_total").register(console.registry).increment(3);
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    @Test
    void healthIsPublicAndServiceUnavailableUntilTheGatewayIsReady() {
        console.status.readiness = Readiness.STARTING;
        HttpResponse<String> starting = console.anonymous().get("/health");
        assertThat(starting.statusCode()).isEqualTo(503);
        assertThat(starting.body()).contains("\"status\":\"STARTING\"");

        console.status.readiness = Readiness.READY;
        HttpResponse<String> ready = console.anonymous().get("/health");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));

        console.status.readiness = Readiness.STOPPING;
        assertThat(console.anonymous().get("/health").statusCode()).isEqualTo(503);
        console.status.readiness = Readiness.FAILED;
        assertThat(console.anonymous().get("/health").statusCode()).isEqualTo(503);
        console.status.readiness = Readiness.READY;
    }

    @Test
    void healthIsOkButDegradedWhileAPartIsDownAndNamesEachPartWithItsReason() {
        console.status.parts = List.of(
                new DegradedPart("channel:db", "FAILED", "opening buffer /data/connections/db/buffer failed"),
                new DegradedPart("device:plc1", "DOWN", "connection refused"));
        try {
            HttpResponse<String> degraded = console.anonymous().get("/health");
            assertThat(degraded.statusCode()).isEqualTo(200);
            assertThat(degraded.body()).contains("\"status\":\"DEGRADED\"",
                    "{\"component\":\"channel:db\",\"state\":\"FAILED\","
                            + "\"reason\":\"opening buffer /data/connections/db/buffer failed\"}",
                    "{\"component\":\"device:plc1\",\"state\":\"DOWN\",\"reason\":\"connection refused\"}");

            console.status.readiness = Readiness.STOPPING;
            HttpResponse<String> stopping = console.anonymous().get("/health");
            assertThat(stopping.statusCode()).isEqualTo(503);
            assertThat(stopping.body()).contains("\"status\":\"STOPPING\"", "\"parts\":[]");
        } finally {
            console.status.parts = List.of();
            console.status.readiness = Readiness.READY;
        }
        HttpResponse<String> ready = console.anonymous().get("/health");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).contains("\"status\":\"READY\"", "\"parts\":[]");
    }

    @Test
    void healthShowsTheFreeSpaceOfEachWatchedDirectory() {
        console.status.disks = List.of(new DiskStatus("/var/lib/qubiq", "WARNING", 81_000, 1_000_000));
        try {
            assertThat(console.anonymous().get("/health").body()).contains("\"disks\":[{\"path\":\"/var/lib/qubiq\","
                    + "\"state\":\"WARNING\",\"freeBytes\":81000,\"totalBytes\":1000000,\"freePercent\":8.1,\"usedBytes\":null}]");
        } finally {
            console.status.disks = List.of();
        }
    }

    @Test
    void healthReportsEveryComponentWithIsoTimes() {
        String body = console.anonymous().get("/health").body();
        assertThat(body)
                .contains("\"name\":\"Test gateway\"", "\"version\":\"1.2.3\"")
                .contains("\"startedAt\":\"2026-01-01T00:00:00Z\"")
                .contains("{\"name\":\"tag-bus\",\"state\":\"RUNNING\",\"since\":\"2026-01-01T00:00:01Z\",\"error\":null}")
                .contains("\"error\":\"disk full\"");
    }

    @Test
    void metricsServePrometheusTextToAViewerAndNobodyElse() {
        HttpResponse<String> response = console.as("viewer").get("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain"));
        assertThat(response.body()).contains("# TYPE test_items_total counter", "test_items_total 3.0");
        assertThat(console.anonymous().get("/metrics").statusCode()).isEqualTo(401);
        assertThat(console.as("nobody").get("/metrics").statusCode()).isEqualTo(403);
    }

    @Test
    void rootServesTheConsoleEntryPageAndTheChartLibraryFromItsWebjar() {
        HttpResponse<String> page = console.anonymous().get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>");
        HttpResponse<String> uplot = console.anonymous().get("/vendor/uplot/uPlot.iife.min.js");
        assertThat(uplot.statusCode()).as("uPlot " + VendorFiles.UPLOT_VERSION + " from its webjar").isEqualTo(200);
        assertThat(uplot.body()).contains("uPlot");
        assertThat(console.anonymous().get("/vendor/uplot/uPlot.min.css").statusCode()).isEqualTo(200);
    }

    @Test
    void theConsolesScriptsAreServedWithTheirTypeAndAnUnchangedOneIsNotSentAgain() throws Exception {
        HttpResponse<String> script = console.anonymous().get("/js/pages/tags.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/javascript"));
        assertThat(script.headers().firstValue("Cache-Control")).contains("no-cache");
        String etag = script.headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> again = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create(console.base() + "/js/pages/tags.js"))
                .header("If-None-Match", etag).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(console.anonymous().get("/js/../index.html").statusCode()).isNotEqualTo(500);
    }

    @Test
    void everyAnswerCarriesTheSecurityHeadersAndApiAnswersAreNotCached() {
        for (String path : new String[] {"/", "/app.js", "/health", "/api/v1/openapi.json", "/api/v1/tags"}) {
            HttpResponse<String> answer = console.anonymous().get(path);
            assertThat(answer.headers().firstValue("X-Content-Type-Options")).as(path).contains("nosniff");
            assertThat(answer.headers().firstValue("X-Frame-Options")).as(path).contains("DENY");
            assertThat(answer.headers().firstValue("Content-Security-Policy")).as(path)
                    .contains(ConsoleServer.CONTENT_SECURITY_POLICY);
            assertThat(answer.headers().firstValue("Strict-Transport-Security")).as(path + " over plain HTTP")
                    .isEmpty();
        }
        assertThat(console.anonymous().get("/api/v1/tags").headers().firstValue("Cache-Control")).contains("no-store");
    }

    @Test
    void unknownPathIsNotFound() {
        assertThat(console.anonymous().get("/no-such-page").statusCode()).isEqualTo(404);
    }

    @Test
    void aRequestForAHostNameTheGatewayDoesNotAnswerToIsRefusedAndChangesNothing() throws Exception {
        String signIn = "{\"user\":\"admin\",\"password\":\"" + ConsoleFixture.password("admin") + "\"}";
        String refused = rawRequest("POST", "/api/v1/session", "rebind.evil.example", signIn);
        assertThat(refused).startsWith("HTTP/1.1 421 ")
                .contains("does not answer to the host name 'rebind.evil.example'", "http.allowed_hosts")
                .doesNotContainIgnoringCase("Set-Cookie");
        assertThat(rawRequest("GET", "/health", "rebind.evil.example:" + console.server.port(), null))
                .startsWith("HTTP/1.1 421 ");
        assertThat(rawRequest("GET", "/", "REBIND.evil.example.", null)).startsWith("HTTP/1.1 421 ");
    }

    @Test
    void loopbackNamesIpAddressesAndConfiguredNamesAreServed() throws Exception {
        for (String host : List.of("localhost:" + console.server.port(), "127.0.0.1", "[::1]:" + console.server.port(),
                "console.plant.example", "Console.Plant.Example:8080", "192.168.10.20:8080")) {
            assertThat(rawRequest("GET", "/health", host, null)).as(host).startsWith("HTTP/1.1 200 ");
        }
    }

    /** One HTTP/1.1 exchange on a plain socket: java.net.http does not let a caller choose the Host header. */
    private static String rawRequest(String method, String path, String host, String body) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", console.server.port())) {
            socket.setSoTimeout(10_000);
            byte[] content = body == null ? new byte[0] : body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            String head = method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
                    + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + content.length
                    + "\r\n") + "\r\n";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().write(content);
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
