package io.qubiq.app.losses;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LossLogTest {

    private final AtomicLong nanos = new AtomicLong();
    private final LossLog lossLog = new LossLog(Duration.ofSeconds(10), nanos::get);
    private final Logger logger = (Logger) LoggerFactory.getLogger("qubiq.losses");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    @BeforeEach
    void listen() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void stopListening() {
        logger.detachAppender(lines);
    }

    private static DataLoss dropped(long items) {
        return DataLoss.of(Instant.now(), "channel", "db", LossReason.DROP_OLDEST, items, items * 10, "at the limit");
    }

    @Test
    void aStormOfLossesIsOneLineAtOnceThenOneSummedLinePerInterval() {
        for (int i = 0; i < 1000; i++) {
            lossLog.note(dropped(1));
        }
        lossLog.tick();
        assertThat(lines.list).hasSize(1);
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        lossLog.tick();
        assertThat(lines.list).hasSize(2).allSatisfy(line -> assertThat(line.getLevel().toString()).isEqualTo("ERROR"));
        assertThat(lines.list.get(1).getFormattedMessage()).contains("999 items").contains("999 more reports")
                .contains("drop_oldest").contains("db");
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        lossLog.tick();
        assertThat(lines.list).as("nothing new, nothing logged").hasSize(2);
    }

    @Test
    void everyOperatorDropHasItsOwnInfoLineWithTheUser() {
        lossLog.note(DataLoss.of(Instant.now(), "quarantine", "db", LossReason.OPERATOR_DROP, 2, 20, "ids [4, 5]").by("erin"));
        lossLog.note(DataLoss.of(Instant.now(), "quarantine", "db", LossReason.OPERATOR_DROP, 1, 10, "ids [6]").by("erin"));
        assertThat(lines.list).hasSize(2).allSatisfy(line -> {
            assertThat(line.getLevel().toString()).isEqualTo("INFO");
            assertThat(line.getFormattedMessage()).contains("erin");
        });
    }
}
