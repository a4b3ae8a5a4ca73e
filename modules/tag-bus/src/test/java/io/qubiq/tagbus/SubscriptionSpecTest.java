package io.qubiq.tagbus;

import io.qubiq.core.tag.TagPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionSpecTest {

    private final RecordingConsumer consumer = new RecordingConsumer();

    @Test
    void defaultsToEveryTagInBatchesOfTheDefaultSize() {
        SubscriptionSpec spec = SubscriptionSpec.of("historian", 1_000, OverflowPolicy.DROP_OLDEST, consumer);

        assertThat(spec.maxBatchValues()).isEqualTo(SubscriptionSpec.DEFAULT_MAX_BATCH_VALUES);
        assertThat(spec.filter().accepts(TagPath.of("any/tag"))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "two words", "tag/bus", "ünïcode?"})
    void nameMustBeSafeForLogsAndThreadNames(String name) {
        assertThatThrownBy(() -> SubscriptionSpec.of(name, 10, OverflowPolicy.DROP_OLDEST, consumer))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be non-empty and hold only letters, digits and . _ -");
    }

    @Test
    void capacityAndBatchSizeMustBePositive() {
        assertThatThrownBy(() -> SubscriptionSpec.of("historian", 0, OverflowPolicy.DROP_OLDEST, consumer))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("subscriber historian: capacityValues must be at least 1, got 0");
        SubscriptionSpec spec = SubscriptionSpec.of("historian", 1, OverflowPolicy.DROP_OLDEST, consumer);
        assertThatThrownBy(() -> spec.withMaxBatchValues(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("subscriber historian: maxBatchValues must be at least 1, got 0");
    }

    @Test
    void prefixFilterMatchesWholeSegmentsOnly() {
        TagFilter filter = TagFilter.under(TagPath.of("plant1/line1"));

        assertThat(filter.accepts(TagPath.of("plant1/line1"))).isTrue();
        assertThat(filter.accepts(TagPath.of("plant1/line1/oven/temp"))).isTrue();
        assertThat(filter.accepts(TagPath.of("plant1/line10"))).isFalse();
        assertThat(filter.accepts(TagPath.of("plant1"))).isFalse();
    }
}
