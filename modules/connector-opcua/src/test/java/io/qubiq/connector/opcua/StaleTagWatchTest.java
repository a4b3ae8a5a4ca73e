package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StaleTagWatchTest {

    static final TagPath TAG = TagPath.of("line/temp");
    static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

    @Test
    void goodValueFrozenPastTheLimitIsMarkedOnceAndClearedByAChange() {
        StaleTagWatch watch = new StaleTagWatch(Duration.ofSeconds(10));
        watch.admit(TagValue.good(TAG, 1.0, T0), T0);
        assertThat(watch.sweep(T0.plusSeconds(9))).isEmpty();
        assertThat(watch.sweep(T0.plusSeconds(10))).singleElement()
                .satisfies(v -> assertThat(v.quality()).isEqualTo(Quality.UNCERTAIN_LAST_USABLE_VALUE));
        assertThat(watch.sweep(T0.plusSeconds(20))).isEmpty();
        // A poll reading the same frozen value stays uncertain...
        assertThat(watch.admit(TagValue.good(TAG, 1.0, T0.plusSeconds(21)), T0.plusSeconds(21)).quality())
                .isEqualTo(Quality.UNCERTAIN_LAST_USABLE_VALUE);
        // ...a new value is good again.
        assertThat(watch.admit(TagValue.good(TAG, 2.0, T0.plusSeconds(22)), T0.plusSeconds(22)).quality())
                .isEqualTo(Quality.GOOD);
    }

    @Test
    void badValuesAreNeverMarkedStale() {
        StaleTagWatch watch = new StaleTagWatch(Duration.ofSeconds(1));
        watch.admit(TagValue.withoutValue(TAG, io.qubiq.core.tag.DataType.FLOAT64, Quality.BAD_NOT_CONNECTED, T0), T0);
        assertThat(watch.sweep(T0.plusSeconds(5))).isEmpty();
    }
}
