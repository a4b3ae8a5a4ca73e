package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.sink.questdb.QuestDbRow;
import io.qubiq.sink.questdb.QuestDbSinkConfig;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@ExtendWith(QuestDbExtension.class)
class HistorianCrashTest {

    static final Logger log = LoggerFactory.getLogger(HistorianCrashTest.class);
    static QuestDbServer questDb;

    @TempDir
    Path dir;

    @Test
    void gatewayKilledMidDrainReplaysItsTailAfterRestartWithoutLossOrDuplicates() throws Exception {
        int count = 3000;
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(),
                questDb.ilpAddress(), dir.toString(), "crash", Integer.toString(count)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        long deliveredBeforeKill = -1;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("ACCEPTED")) {
                    child.destroyForcibly(); // SIGKILL, as a crash or power cut would end the gateway
                    break;
                }
            }
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(line).as("the child accepted every value before it was killed").startsWith("ACCEPTED");
        } finally {
            child.destroyForcibly();
        }
        long storedAtKill = rows();
        log.info("killed the gateway with {} of {} rows in QuestDB", storedAtKill, count);

        HistorianConfig config = CrashChild.config("crash");
        StoreForwardChannel<QuestDbRow> channel = HistorianChannels.channel("historian", config,
                QuestDbSinkConfig.of(questDb.ilpAddress()), dir, Liveness.alwaysUnknown(), EventPublisher.none(),
                Clock.systemUTC());
        channel.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> channel.status().bufferedItems() == 0);
            await().atMost(Duration.ofSeconds(20)).until(() -> rows() == count);
            assertThat(((Number) questDb.exec("SELECT count() FROM (SELECT DISTINCT ts, tag FROM crash_long)")
                    .value(0, "count()")).longValue()).isEqualTo(count);
            assertThat(((Number) questDb.exec("SELECT sum(value) FROM crash_long").value(0, "sum(value)"))
                    .longValue()).isEqualTo((long) count * (count - 1) / 2);
        } finally {
            channel.stop();
        }
    }

    static long rows() {
        try {
            return ((Number) questDb.exec("SELECT count() FROM crash_long").value(0, "count()")).longValue();
        } catch (RuntimeException tableNotYetCreated) {
            return 0;
        }
    }
}
