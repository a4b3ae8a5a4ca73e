package io.qubiq.questdb.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher with real child processes: a real QuestDB, a JVM that fails to start, a child that never answers. */
class QuestDbProcessTest {

    @TempDir
    Path dir;
    private Process child;

    @AfterEach
    void noChildOutlivesItsTest() throws Exception {
        if (child != null && child.isAlive()) {
            QuestDbProcess.kill(child.toHandle(), Duration.ofSeconds(10));
        }
    }

    @Test
    void aLaunchedQuestDbIsReadyIsFoundByItsPidAndDirectoryAndStopsOnSigterm() throws Exception {
        int http = LoopbackPorts.take(1).get(0);
        QuestDbLaunch launch = TestServers.launch(dir.resolve("db"), http);
        launch.prepare();
        child = launch.processBuilder().start();

        assertThat(QuestDbProcess.awaitReady(child, http, Duration.ofSeconds(60), Duration.ofMillis(100)))
                .isEqualTo(QuestDbProcess.Readiness.READY);
        assertThat(QuestDbProcess.findServer(child.pid(), dir.resolve("db"))).isPresent();
        assertThat(QuestDbProcess.findServer(child.pid(), dir.resolve("elsewhere"))).isEmpty();
        assertThat(Files.size(launch.logFile())).as("QuestDB logs to its own file").isPositive();

        assertThat(QuestDbProcess.terminate(child.toHandle(), Duration.ofSeconds(30))).isTrue();
        assertThat(child.isAlive()).isFalse();
        assertThat(QuestDbProcess.findServer(child.pid(), dir.resolve("db"))).isEmpty();
    }

    @Test
    void aChildThatExitsWhileStartingIsReportedAsExited() throws Exception {
        QuestDbLaunch broken = new QuestDbLaunch(TestServers.questDbJar(), dir, List.of("-XX:+NoSuchOptionAnywhere"),
                QuestDbLaunch.loopback(1, 2), dir.resolve("stdout.txt"), false);
        child = broken.processBuilder().start();

        assertThat(QuestDbProcess.awaitReady(child, LoopbackPorts.take(1).get(0), Duration.ofSeconds(30),
                Duration.ofMillis(100))).isEqualTo(QuestDbProcess.Readiness.EXITED);
        assertThat(Files.readString(dir.resolve("stdout.txt"))).contains("NoSuchOptionAnywhere");
    }

    @Test
    void aChildThatNeverAnswersTimesOutAndIsKilledByItsPid() throws Exception {
        child = new ProcessBuilder("sleep", "60").start();

        assertThat(QuestDbProcess.awaitReady(child, LoopbackPorts.take(1).get(0), Duration.ofMillis(500),
                Duration.ofMillis(100))).isEqualTo(QuestDbProcess.Readiness.TIMED_OUT);
        assertThat(child.isAlive()).isTrue();

        assertThat(QuestDbProcess.kill(child.toHandle(), Duration.ofSeconds(10))).isTrue();
        assertThat(child.isAlive()).isFalse();
    }

    @Test
    void aLiveProcessThatIsNotAQuestDbOnTheDirectoryIsNeverFound() throws Exception {
        child = new ProcessBuilder("sleep", "60").start();

        assertThat(QuestDbProcess.findServer(child.pid(), dir)).isEmpty();
        assertThat(QuestDbProcess.findServer(ProcessHandle.current().pid(), dir)).isEmpty();
        assertThat(QuestDbProcess.terminate(child.toHandle(), Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void freeLoopbackPortsAreDistinct() {
        List<Integer> ports = LoopbackPorts.take(5);

        assertThat(ports).doesNotHaveDuplicates().allSatisfy(port -> assertThat(port).isBetween(1, 65535));
    }
}
