package io.qubiq.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.qubiq.buffer.OverflowPolicy;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A channel that is not running (it failed to start, say) refuses every delivery for as long as the
 * gateway runs: the pipeline counts each refusal and keeps the last error, and logs it once.
 */
class PipelineRefusalLogTest {

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger pipelineLog = (Logger) LoggerFactory.getLogger(Pipeline.class);
    private PipelineRig rig;

    @BeforeEach
    void captureLog() {
        log.start();
        pipelineLog.addAppender(log);
    }

    @AfterEach
    void stop() throws Exception {
        pipelineLog.detachAppender(log);
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void connectionsThatKeepRefusingAreCountedEveryTimeAndLoggedOnceEach() throws Exception {
        rig = new PipelineRig(dir).connection("out", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("other", OverflowPolicy.REFUSE, PipelineRig.fast())
                .connection("fine", OverflowPolicy.REFUSE, PipelineRig.fast())
                .start(PipelineConfigs.parse("""
                        pipelines:
                          p:
                            trigger: {tags: ["a/**"]}
                            outputs:
                              - connection: out
                                mqtt: {topic: "t", payload: "value"}
                              - connection: fine
                                mqtt: {topic: "t", payload: "value"}
                              - connection: other
                                mqtt: {topic: "t", payload: "value"}
                        """));
        rig.channels.get("out").stop();
        rig.channels.get("other").stop();

        for (long i = 1; i <= 5; i++) {
            rig.publish("a/x", i);
            long delivered = i;
            await().atMost(Duration.ofSeconds(10)).until(() -> rig.received("fine").size() == delivered);
        }

        PipelineStatus status = rig.pipelines.status("p").orElseThrow();
        assertThat(status.refused()).isEqualTo(10);
        assertThat(status.lastError()).hasValueSatisfying(error ->
                assertThat(error).contains("connection other did not take", "is not running"));
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.WARN)
                .extracting(ILoggingEvent::getFormattedMessage)
                .as("one line per refusing connection, not one per delivery")
                .hasSize(2)
                .anySatisfy(line -> assertThat(line).contains("connection out did not take 1 item(s)"))
                .anySatisfy(line -> assertThat(line).contains("connection other did not take 1 item(s)"));
    }
}
