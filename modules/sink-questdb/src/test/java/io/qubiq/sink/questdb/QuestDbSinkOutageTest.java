package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.error.TransientException;
import io.qubiq.core.error.UnknownOutcomeException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sink while its real QuestDB is stopped or frozen; each test leaves the server running. */
@ExtendWith(QuestDbExtension.class)
class QuestDbSinkOutageTest {

    static QuestDbServer questDb;

    @AfterEach
    void serverRunsAgain() {
        if (!questDb.isRunning()) {
            questDb.restart();
        }
    }

    private static QuestDbRow row(String table, int second) {
        return QuestDbRow.builder(table, Instant.parse("2026-01-01T00:00:00Z").plusSeconds(second))
                .symbol("tag", "a").column("value", (double) second).build();
    }

    private static long count(String table) {
        return (Long) questDb.exec("select count() n from " + table).value(0, "n");
    }

    @Test
    void stoppedServerIsTransientAndProbedDownAndTheSameSinkRecoversAfterRestart() throws Exception {
        try (QuestDbSink sink = new QuestDbSink("historian", QuestDbSinkConfig.of(questDb.ilpAddress()))) {
            sink.write(List.of(row("outage", 0)));

            // The client keeps its connection alive; the stop closes it under the client's feet.
            questDb.stop();
            assertThatThrownBy(() -> sink.write(List.of(row("outage", 1))))
                    .isInstanceOf(TransientException.class)
                    .hasMessageContaining("unreachable");
            assertThatThrownBy(() -> sink.write(List.of(row("outage", 1))))
                    .isInstanceOf(TransientException.class);
            ConnectionStatus down = sink.probe();
            assertThat(down.state()).isEqualTo(ConnectionState.DOWN);
            assertThat(down.lastError()).hasValueSatisfying(error -> assertThat(error).contains("/ping"));

            questDb.restart();
            assertThat(sink.probe().state()).isEqualTo(ConnectionState.UP);
            sink.write(List.of(row("outage", 1)));
            await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> count("outage") == 2);
        }
    }

    @Test
    void frozenServerThatReceivedTheRequestButNeverAnsweredIsUnknownOutcome() throws Exception {
        try (QuestDbSink setup = new QuestDbSink("setup", QuestDbSinkConfig.of(questDb.ilpAddress()))) {
            setup.write(List.of(row("frozen", 0)));
        }
        await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> count("frozen") == 1);
        QuestDbSinkConfig config = QuestDbSinkConfig.of(questDb.ilpAddress()).withRequestTimeoutMs(1500);
        try (QuestDbSink sink = new QuestDbSink("historian", config)) {
            questDb.suspend();
            try {
                assertThatThrownBy(() -> sink.write(List.of(row("frozen", 1))))
                        .isInstanceOf(UnknownOutcomeException.class)
                        .hasMessageContaining("may have committed");
                assertThat(sink.probe().state()).isEqualTo(ConnectionState.DOWN);
            } finally {
                questDb.resume();
            }

            // Thawed, the server answers again and the same sink writes with a fresh client. Whether the
            // timed-out row was committed is exactly what the sink cannot know.
            await().atMost(Duration.ofSeconds(15)).until(() -> sink.probe().state() == ConnectionState.UP);
            sink.write(List.of(row("frozen", 2)));
            await().atMost(Duration.ofSeconds(15)).ignoreExceptions().until(() -> count("frozen") >= 2);
        }
    }
}
