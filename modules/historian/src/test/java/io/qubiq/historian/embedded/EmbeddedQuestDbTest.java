package io.qubiq.historian.embedded;

import io.qubiq.questdb.process.LoopbackPorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway's own QuestDB child: started again when it dies, and gone when the gateway stops. */
class EmbeddedQuestDbTest {

    @TempDir
    Path dir;
    final int http = LoopbackPorts.take(1).get(0);
    EmbeddedQuestDb questDb;
    static final String PASSWORD = "test-only-password";

    @Test
    void sqlOverHttpNeedsTheUserAndPasswordWhilePingStaysOpen() throws Exception {
        String sql = "/exec?query=" + java.net.URLEncoder.encode("drop table if exists anything",
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(send(sql, null).statusCode()).isEqualTo(401);
        assertThat(send(sql, io.qubiq.questdb.exec.ExecClient.basic("admin", "quest")).statusCode()).isEqualTo(401);
        assertThat(send(sql, io.qubiq.questdb.exec.ExecClient.basic(EmbeddedQuestDb.USER, PASSWORD)).statusCode())
                .isEqualTo(200);
        assertThat(ping(http)).isTrue();
    }

    private HttpResponse<String> send(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @BeforeEach
    void startQuestDb() throws Exception {
        questDb = new EmbeddedQuestDb(dir, questDbJar(), http, LoopbackPorts.take(1).get(0), 256, PASSWORD);
        questDb.start();
    }

    @AfterEach
    void stopQuestDb() throws Exception {
        questDb.stop();
    }

    @Test
    void aQuestDbKilledWhileTheGatewayRunsIsStartedAgainOnItsPortsAndStopsWithTheGateway() throws Exception {
        long first = pid();
        assertThat(ping(http)).isTrue();

        ProcessHandle.of(first).orElseThrow().destroyForcibly(); // kill -9, as the OOM killer would

        await().atMost(Duration.ofSeconds(90)).until(() -> questDb.restarts() == 1);
        assertThat(ping(http)).isTrue();
        assertThat(pid()).isNotEqualTo(first);
        assertThat(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        long second = pid();

        questDb.stop();

        assertThat(ProcessHandle.of(second).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(dir.resolve("questdb.pid")).doesNotExist();
        assertStaysDown(EmbeddedQuestDb.RESTART_DELAYS_S[1]); // the delay after an early death
    }

    @Test
    void stoppingWhileARestartWaitsForQuestDbToAnswerLeavesNothingRunning() throws Exception {
        long first = pid();
        ProcessHandle.of(first).orElseThrow().destroyForcibly();
        // the new child is launched (its PID written) and takes seconds to answer: stop in between
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> pid() != first);
        long second = pid();

        questDb.stop();

        assertThat(ProcessHandle.of(second).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(dir.resolve("questdb.pid")).doesNotExist();
        assertThat(questDb.restarts()).as("the restart was cut short").isZero();
        assertStaysDown(EmbeddedQuestDb.RESTART_DELAYS_S[2]);
    }

    /** Nothing answers on the port for the restart delay and a start's time after it: no restart after stop. */
    private void assertStaysDown(long delaySeconds) {
        Duration quiet = Duration.ofSeconds(delaySeconds).plusSeconds(5); // QuestDB answers 3-4 s after it starts
        await("no restart after stop").during(quiet).atMost(quiet.plusSeconds(2)).until(() -> !ping(http));
    }

    /** The QuestDB jar of the test classpath; the gateway's own lookup ({@link EmbeddedQuestDb#locateJar(Class)}) looks beside the packaged jar. */
    private static Path questDbJar() throws Exception {
        return Path.of(io.questdb.ServerMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private long pid() throws Exception {
        Path file = dir.resolve("questdb.pid");
        return Files.exists(file) ? Long.parseLong(Files.readString(file).trim()) : -1;
    }

    private static boolean ping(int port) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping"))
                    .timeout(Duration.ofSeconds(2)).build();
            return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode() / 100
                    == 2;
        } catch (Exception e) {
            return false;
        }
    }
}
