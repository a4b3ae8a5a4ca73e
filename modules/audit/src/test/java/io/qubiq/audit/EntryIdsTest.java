package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class EntryIdsTest {

    @Test
    void idsIncreaseWithinOneMillisecondAndWhenTheClockStepsBack() {
        Clock late = Clock.fixed(Instant.parse("2025-03-01T08:00:00Z"), ZoneOffset.UTC);
        EntryIds ids = EntryIds.create(late);
        long first = ids.next();
        long second = ids.next();
        assertThat(first).isEqualTo(late.millis() << EntryIds.COUNTER_BITS);
        assertThat(second).isEqualTo(first + 1);

        EntryIds afterRestart = EntryIds.after(second, Clock.fixed(Instant.parse("2024-01-01T00:00:00Z"), ZoneOffset.UTC));
        assertThat(afterRestart.next()).isEqualTo(second + 1);
    }
}
