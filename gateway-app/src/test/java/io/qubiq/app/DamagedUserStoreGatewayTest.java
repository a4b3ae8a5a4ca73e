package io.qubiq.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.http.ConsoleClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A plant gateway whose console's users file is damaged keeps collecting (field failure: the damaged file
 * refused to start the whole gateway, so a hand edit of {@code users.properties} stopped data collection).
 * Whole gateways in-process, with the demo plant as the device: the first starts on a damaged file, answers
 * /health DEGRADED naming the user store, collects, logs one ERROR naming the file and the recovery, and
 * refuses sign-in and API tokens with 503 saying so; {@code reset-admin} refuses while it runs, and after it
 * stopped gives the administrator back, so the second gateway lets them sign in.
 */
class DamagedUserStoreGatewayTest {

    static final Duration WAIT = Duration.ofSeconds(60);
    static final String RESET_PASSWORD = "reset-password-123";

    @TempDir
    Path dir;

    final HttpClient http = HttpClient.newHttpClient();

    static GatewayConfig config() throws Exception {
        String yaml = TestOperators.AUTH_YAML + """
                http:
                  port: 0
                logging:
                  file_enabled: false
                demo_plant:
                  opcua_port: 0
                  mqtt_port: 0
                """;
        return ConfigLoader.parse("test.yaml", yaml, GatewayConfig.class, Map.of());
    }

    @Test
    void gatewayWithADamagedUsersFileCollectsRefusesSignInAndResetAdminLetsTheAdministratorBackIn() throws Exception {
        Path dataDir = dir.resolve("data");
        Path users = dataDir.resolve("auth").resolve("users.properties");
        Files.createDirectories(users.getParent());
        byte[] damaged = "# Qubiq users.\nformat=qubiq-users/1\nusers=1\nuser.0.name=adm".getBytes(StandardCharsets.UTF_8);
        Files.write(users, damaged); // truncated mid-line: no checksum line
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Gateway.class)).addAppender(logged);

        DataDirectory data = DataDirectory.open(dataDir);
        Gateway gateway = new Gateway(config(), data, Clock.systemUTC());
        try {
            gateway.lifecycle().startAll();
            String base = "http://127.0.0.1:" + gateway.console().port();

            await().atMost(WAIT).until(() -> health(base).body().contains("\"status\":\"DEGRADED\""));
            HttpResponse<String> health = health(base);
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"DEGRADED\"", "\"state\":\"DAMAGED\"", users.toString(),
                    "reset-admin");
            Instant started = Instant.now();
            await().atMost(WAIT).until(() -> gateway.tagBus().latestValues().snapshot().stream()
                    .map(TagValue::serverTime).anyMatch(t -> t.isAfter(started)));
            assertThat(logged.list).filteredOn(e -> e.getLevel() == Level.ERROR).singleElement().satisfies(e ->
                    assertThat(e.getFormattedMessage()).contains(users.toString(), "reset-admin", "corrupt"));

            HttpResponse<String> signIn = ConsoleClient.anonymous(base).signIn(TestOperators.ADMIN,
                    TestOperators.ADMIN_PASSWORD);
            assertThat(signIn.statusCode()).isEqualTo(503);
            assertThat(signIn.body()).contains("damaged", users.toString(), "reset-admin");
            HttpResponse<String> withToken = ConsoleClient.withToken(base, "qbq_" + "x".repeat(43)).get("/api/v1/connections");
            assertThat(withToken.statusCode()).isEqualTo(503);
            assertThat(withToken.body()).contains("damaged", "reset-admin");

            Run running = resetAdmin(dataDir);
            assertThat(running.code()).as("refused while the gateway runs").isEqualTo(ExitCode.START_FAILED);
            assertThat(running.err()).contains("in use");
            assertThat(Files.readAllBytes(users)).isEqualTo(damaged);
        } finally {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
            gateway.closeMetrics();
            data.close();
            ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Gateway.class)).detachAppender(logged);
        }

        Run reset = resetAdmin(dataDir);
        assertThat(reset.code()).as(reset.err()).isEqualTo(ExitCode.OK);
        assertThat(reset.out()).contains("damaged", "corrupt", "administrator admin").doesNotContain(RESET_PASSWORD);

        DataDirectory again = DataDirectory.open(dataDir);
        Gateway restarted = new Gateway(config(), again, Clock.systemUTC());
        try {
            restarted.lifecycle().startAll();
            String base = "http://127.0.0.1:" + restarted.console().port();
            assertThat(health(base).body()).doesNotContain("user-store");
            ConsoleClient admin = ConsoleClient.signedIn(base, "admin", RESET_PASSWORD);
            assertThat(admin.get("/api/v1/session").statusCode()).isEqualTo(200);
        } finally {
            restarted.lifecycle().stopAll(Duration.ofSeconds(30));
            restarted.closeMetrics();
            again.close();
        }
    }

    record Run(int code, String out, String err) {
    }

    static Run resetAdmin(Path dataDir) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"reset-admin", "--data-dir", dataDir.toString()},
                Map.of(AdminResetCommand.PASSWORD_VARIABLE, RESET_PASSWORD),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    HttpResponse<String> health(String base) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
