package io.qubiq.app.events;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The {@code qubiq.audit} log line: one line per event, whatever the user typed. */
class AuditLogLineTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger("qubiq.audit");
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

    @Test
    void aTagWriteValueWithANewlineCannotForgeALogLine() {
        // Regression: the value was logged raw, so a value with a newline wrote a second, forged line.
        String forged = "1\n2026-12-03 14:00:00,000 INFO  - 2026-12-03T14:00:00Z admin SIGN_IN user/admin: ok {}";
        Map<String, String> details = new LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, "127.0.0.1");
        details.put("value", forged);
        EventJournal journal = new EventJournal();

        journal.audit(new AuditEvent(Instant.parse("2026-12-03T13:59:00Z"), "operator", AuditAction.TAG_WRITE,
                "tag/plant/setpoint", "failed: cannot write \"" + forged + "\"\r\u001b[2K", details));

        assertThat(lines.list).hasSize(1);
        String line = lines.list.get(0).getFormattedMessage();
        assertThat(line).doesNotContain("\n", "\r", "\u001b")
                .contains("value=1\\n2026-12-03 14:00:00,000 INFO", "\\r\\u001b[2K");
        assertThat(journal.recentAudits().get(0).details().get("value")).as("the journal keeps the value as typed")
                .isEqualTo(forged);
    }
}
