package io.qubiq.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import io.qubiq.testkit.http.ConsoleClient;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The application jar as an operator runs it: start, serve, stop on SIGTERM, refuse bad input. */
class GatewayProcessIT {

    @TempDir
    Path work;

    @Test
    void demoBecomesReadyServesMetricsAndStopsWithExitZeroOnSigterm() throws Exception {
        int port = GatewayProcess.freePort();
        try (GatewayProcess gateway = GatewayProcess.start(work, "demo", "--http-port", String.valueOf(port),
                "--data-dir", "state")) {
            AtomicReference<HttpResponse<String>> health = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptionsInstanceOf(java.io.IOException.class)
                    .until(() -> {
                        assertThat(gateway.isAlive()).as("gateway alive; output:\n%s", gateway.output()).isTrue();
                        health.set(gateway.get(port, "/health"));
                        // 200 comes with DEGRADED too, while a demo connection is still coming up
                        return health.get().statusCode() == 200
                                && health.get().body().contains("\"status\":\"READY\"");
                    });
            assertThat(health.get().body()).contains("\"parts\":[]", "\"name\":\"Qubiq demo plant\"",
                    "\"name\":\"http\",\"state\":\"RUNNING\"", "\"name\":\"tag-bus\",\"state\":\"RUNNING\"",
                    "\"name\":\"questdb\",\"state\":\"RUNNING\"", "\"name\":\"historian\",\"state\":\"RUNNING\"");

            // first start without users: the log carries a one-time setup token that creates the administrator
            assertThat(gateway.get(port, "/metrics").statusCode()).as("metrics need sign-in").isEqualTo(401);
            ConsoleClient admin = firstAdministrator(gateway, port);

            HttpResponse<String> metrics = admin.get("/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/plain"));
            assertThat(metrics.body()).contains("# TYPE jvm_memory_used_bytes gauge",
                    "tagbus_values_published_total", "qubiq_component_running{component=\"tag-bus\"} 1.0");

            assertThat(gateway.get(port, "/").body()).contains("<title>");

            // the simulated plant is read over OPC UA and its values are live in the tag table
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> admin.get("/api/v1/tags").body().contains("\"path\":\"demo/tank/level\""));
            assertThat(admin.get("/api/v1/connections").body()).contains("\"id\":\"demo-plant\"",
                    "\"state\":\"UP\"");

            // ... and its MQTT side through the embedded broker: the energy meter's JSON readings are live tags
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> admin.get("/api/v1/tags/demo/meter/energy").statusCode() == 200);
            assertThat(admin.get("/api/v1/tags").body()).contains("\"path\":\"demo/meter/energy\"");
            assertThat(admin.get("/api/v1/tags/demo/meter/energy").body()).contains("\"type\":\"FLOAT64\"",
                    "\"quality\":\"Good\"");
            assertThat(admin.get("/api/v1/connections/demo-plant-mqtt").body()).contains("\"type\":\"mqtt\"",
                    "\"state\":\"UP\"", "\"malformed_payloads\":0");

            gateway.terminate();
            // the demo's grace period is 10 s; a clean stop must finish well inside it
            assertThat(gateway.awaitExit(Duration.ofSeconds(10))).as(gateway.output()).isEqualTo(0);
            assertThat(gateway.output()).contains("SIGTERM received", "Stopped after SIGTERM")
                    .doesNotContain("exited with code"); // QuestDB was stopped by the gateway, in order
        }
        assertThat(work.resolve("state/logs/qubiq.log")).exists();
        assertThat(Files.readString(work.resolve("state/logs/qubiq.log"))).contains("ready in");
        // started without a umask of its own (java -jar): what the gateway created is its user's alone
        if (io.qubiq.fileops.OwnerOnly.POSIX) {
            for (String dir : new String[] {"state", "state/logs", "state/auth", "state/connections/historian",
                    "state/connections/historian/buffer", "state/questdb"}) {
                assertThat(mode(work.resolve(dir))).as(dir).isEqualTo("rwx------");
            }
            for (String file : new String[] {"state/logs/qubiq.log", "state/auth/users.properties", "state/demo.yaml",
                    "state/gateway.lock"}) {
                assertThat(mode(work.resolve(file))).as(file).isEqualTo("rw-------");
            }
        }
    }

    private static String mode(Path path) throws java.io.IOException {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void demoKilledWithSigkillRestartsOnItsDataAndReplacesItsOrphanedQuestDb() throws Exception {
        int port = GatewayProcess.freePort();
        long orphan;
        try (GatewayProcess first = GatewayProcess.start(work, "demo", "--http-port", String.valueOf(port),
                "--data-dir", "state")) {
            awaitReady(first, port);
            orphan = Long.parseLong(Files.readString(work.resolve("state/questdb/questdb.pid")).trim());
            first.close(); // SIGKILL: no shutdown at all
        }
        assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive)).as("QuestDB outlives a killed gateway")
                .contains(true);

        try (GatewayProcess second = GatewayProcess.start(work, "demo", "--http-port", String.valueOf(port),
                "--data-dir", "state")) {
            awaitReady(second, port);
            assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            assertThat(second.output()).contains("left running by a gateway that did not stop cleanly");
            second.terminate();
            assertThat(second.awaitExit(Duration.ofSeconds(15))).as(second.output()).isEqualTo(0);
        }
        assertThat(work.resolve("state/questdb/questdb.pid")).doesNotExist();
    }

    /** Creates the administrator with the one-time setup token a first start logs, and signs in. */
    private static ConsoleClient firstAdministrator(GatewayProcess gateway, int port) throws Exception {
        Matcher token = Pattern.compile("setup_[A-Za-z0-9_-]{20,}").matcher(gateway.output());
        assertThat(token.find()).as("setup token in the output:\n%s", gateway.output()).isTrue();
        ConsoleClient console = ConsoleClient.anonymous("http://127.0.0.1:" + port);
        assertThat(console.get("/api/v1/setup").body()).contains("\"required\":true");
        HttpResponse<String> setup = console.post("/api/v1/setup", "{\"token\":\"" + token.group()
                + "\",\"user\":\"admin\",\"password\":\"demo-owner-passphrase\"}");
        assertThat(setup.statusCode()).as(setup.body()).isEqualTo(201);
        return ConsoleClient.signedIn("http://127.0.0.1:" + port, "admin", "demo-owner-passphrase");
    }

    /**
     * The packaged demo, changed over the configuration API, then killed: would catch a demo whose
     * configuration cannot be changed (not copied into the data directory), a change that does not
     * reach the file, and a restart that runs the old configuration or loses the revisions.
     */
    @Test
    void theDemosConfigurationChangedOverTheApiRunsAfterAKillAndRestartAndAHandEditIsReadOnSighup() throws Exception {
        int port = GatewayProcess.freePort();
        String name = "Line 4 demo";
        try (GatewayProcess first = GatewayProcess.start(work, "demo", "--http-port", String.valueOf(port),
                "--data-dir", "state")) {
            awaitReady(first, port);
            ConsoleClient admin = firstAdministrator(first, port);
            Matcher revision = Pattern.compile("\"fileRevision\":\"([^\"]+)\"")
                    .matcher(admin.get("/api/v1/config").body());
            assertThat(revision.find()).isTrue();
            HttpResponse<String> put = admin.put("/api/v1/config/gateway.name", "{\"revision\":\"" + revision.group(1)
                    + "\",\"value\":\"" + name + "\",\"comment\":\"renamed for line 4\"}");
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            assertThat(put.body()).contains("\"needRestart\":[\"gateway\"]");
            assertThat(Files.readString(work.resolve("state/demo.yaml"))).contains("name: " + name);
            first.close(); // SIGKILL: no shutdown at all
        }
        try (GatewayProcess second = GatewayProcess.start(work, "demo", "--http-port", String.valueOf(port),
                "--data-dir", "state")) {
            awaitReady(second, port);
            ConsoleClient admin = ConsoleClient.signedIn("http://127.0.0.1:" + port, "admin", "demo-owner-passphrase");
            assertThat(admin.get("/api/v1/config").body()).contains("\"name\":\"" + name + "\"")
                    .contains("\"pendingRestart\":[]");
            String revisions = admin.get("/api/v1/config/revisions").body();
            assertThat(revisions).contains("renamed for line 4");
            assertThat(Pattern.compile("\"number\":").matcher(revisions).results().count()).isEqualTo(2);

            // a hand edit, then SIGHUP: read again, recorded as a revision of source file, the change waits
            Path file = work.resolve("state/demo.yaml");
            Files.writeString(file, Files.readString(file).replace("level: info", "level: debug"));
            assertThat(new ProcessBuilder("kill", "-HUP", String.valueOf(second.pid())).start().waitFor()).isZero();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(admin.get("/api/v1/config").body())
                    .contains("\"pendingRestart\":[\"gateway\"]"));
            assertThat(admin.get("/api/v1/config/revisions").body()).contains("\"source\":\"file\"");
            assertThat(second.output()).contains("Configuration reloaded (SIGHUP)");
            assertThat(second.isAlive()).as("SIGHUP does not stop the gateway").isTrue();
            second.terminate();
            assertThat(second.awaitExit(Duration.ofSeconds(15))).as(second.output()).isEqualTo(0);
        }
    }

    private static void awaitReady(GatewayProcess gateway, int port) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsInstanceOf(java.io.IOException.class)
                .until(() -> {
                    assertThat(gateway.isAlive()).as("gateway alive; output:\n%s", gateway.output()).isTrue();
                    return gateway.get(port, "/health").statusCode() == 200;
                });
    }

    @Test
    void checkConfigListsEveryMistakeWithItsLineAndExitsTwo() throws Exception {
        Path file = Files.writeString(work.resolve("three-mistakes.yaml"), """
                gateway:
                  nmae: Line 4
                http:
                  port: eighty
                lifecycle:
                  shutdown_grace_period_ms: 5
                """);
        GatewayProcess.Finished result = GatewayProcess.runToEnd(work, "check-config", file.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output())
                .contains("3 problems")
                .contains(":2:3: gateway.nmae: unknown key")
                .contains(":4:9: http.port: expected an integer between 0 and 65535, got \"eighty\"")
                .contains(":6:29: lifecycle.shutdown_grace_period_ms: expected an integer between 100 and 600000");
    }

    @Test
    void checkConfigAcceptsTheShippedSamplesWithExitZero() throws Exception {
        Path repo = Path.of(System.getProperty("qubiq.repo", ".."));
        for (String sample : new String[] {"config/gateway.yaml", "config/demo.yaml"}) {
            GatewayProcess.Finished result = GatewayProcess.runToEnd(work, "check-config",
                    repo.resolve(sample).toAbsolutePath().toString());
            assertThat(result.exitCode()).as(result.output()).isEqualTo(0);
            assertThat(result.output()).contains("valid");
        }
    }

    @Test
    void runWithAnInvalidFileRefusesToStartAndLeavesTheDataDirectoryUntouched() throws Exception {
        Path file = Files.writeString(work.resolve("bad.yaml"), "http:\n  port: 99999\n");
        GatewayProcess.Finished result = GatewayProcess.runToEnd(work, "run", "--config", file.toString(),
                "--data-dir", "state");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("bad.yaml:2:9: http.port", "not started; nothing was changed");
        assertThat(work.resolve("state")).doesNotExist();
    }

    @Test
    void secondGatewayOnTheSameDataDirectoryFailsNamingTheHoldersPid() throws Exception {
        int port = GatewayProcess.freePort();
        try (GatewayProcess first = GatewayProcess.start(work, "demo", "--http-port", String.valueOf(port),
                "--data-dir", "shared")) {
            awaitReady(first, port);

            GatewayProcess.Finished second = GatewayProcess.runToEnd(work, "demo", "--http-port",
                    String.valueOf(GatewayProcess.freePort()), "--data-dir", "shared");
            assertThat(second.exitCode()).isEqualTo(1);
            assertThat(second.output()).contains("in use by another gateway (PID " + first.pid() + ")");
            first.terminate();
            assertThat(first.awaitExit(Duration.ofSeconds(10))).isEqualTo(0);
        }
    }

    @Test
    void portAlreadyInUseFailsStartUpWithExitOne() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getByName("127.0.0.1"))) {
            GatewayProcess.Finished result = GatewayProcess.runToEnd(work, "demo", "--http-port",
                    String.valueOf(taken.getLocalPort()), "--data-dir", "state");
            assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
            assertThat(result.output()).contains("component 'http' failed to start");
        }
    }

    @Test
    void versionAndUsageErrorsAnswerWithoutStarting() throws Exception {
        GatewayProcess.Finished version = GatewayProcess.runToEnd(work, "version");
        assertThat(version.exitCode()).isEqualTo(0);
        assertThat(version.output()).startsWith("qubiq ");

        GatewayProcess.Finished unknown = GatewayProcess.runToEnd(work, "launch");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.output()).contains("unknown command 'launch'");
        assertThat(work.resolve("data")).doesNotExist();
    }
}
