package io.qubiq.connector.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class MalformedPayloadCounterTest {

    @Test
    void countsPerTopicAndKeepsTheLastError() {
        MalformedPayloadCounter counter = new MalformedPayloadCounter("c", Clock.systemUTC(), 10_000);
        counter.record("a", "first");
        counter.record("a", "second");
        counter.record("b", "other");
        assertThat(counter.total()).isEqualTo(3);
        assertThat(counter.byTopic().get("a").count()).isEqualTo(2);
        assertThat(counter.byTopic().get("a").lastError()).isEqualTo("second");
        assertThat(counter.byTopic().get("b").count()).isEqualTo(1);
    }

    @Test
    void topicsBeyondTheCapShareOneEntrySoWildcardsCannotExhaustMemory() {
        Clock clock = Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC);
        MalformedPayloadCounter counter = new MalformedPayloadCounter("c", clock, 10_000);
        for (int i = 0; i < MalformedPayloadCounter.MAX_TOPICS + 5; i++) {
            counter.record("t/" + i, "bad");
        }
        assertThat(counter.byTopic()).hasSize(MalformedPayloadCounter.MAX_TOPICS + 1);
        assertThat(counter.byTopic().get(MalformedPayloadCounter.OTHER_TOPICS).count()).isEqualTo(5);
        assertThat(counter.total()).isEqualTo(MalformedPayloadCounter.MAX_TOPICS + 5);
    }
}
