package io.qubiq.core.tag;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TagValueTest {

    private static final TagPath PATH = TagPath.of("plant1/oven/temp");
    private static final Instant SAMPLED = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant RECEIVED = Instant.parse("2026-01-01T10:00:01Z");

    @Test
    void goodValueInfersItsTypeAndUsesOneTimeForBothTimestamps() {
        TagValue value = TagValue.good(PATH, 21.5, SAMPLED);

        assertThat(value.type()).isEqualTo(DataType.FLOAT64);
        assertThat(value.quality()).isEqualTo(Quality.GOOD);
        assertThat(value.sourceTime()).isEqualTo(SAMPLED);
        assertThat(value.serverTime()).isEqualTo(SAMPLED);
        assertThat(value.valueIfPresent()).contains(21.5);
    }

    @Test
    void valueOfTheWrongJavaTypeIsRejectedNamingTheTagAndBothTypes() {
        assertThatThrownBy(() -> new TagValue(PATH, 21, DataType.FLOAT64, Quality.GOOD, SAMPLED, RECEIVED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tag plant1/oven/temp: type FLOAT64 is carried by Double, got Integer");
        assertThatThrownBy(() -> new TagValue(PATH, "21", DataType.INT32, Quality.BAD, SAMPLED, RECEIVED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tag plant1/oven/temp: type INT32 is carried by Integer, got String");
    }

    @Test
    void nullValueIsAllowedOnlyWithANonGoodQuality() {
        assertThatThrownBy(() -> new TagValue(PATH, null, DataType.FLOAT64, Quality.GOOD, SAMPLED, RECEIVED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tag plant1/oven/temp: a null value cannot have good quality");
        assertThatThrownBy(() -> new TagValue(PATH, null, DataType.FLOAT64, Quality.GOOD_LOCAL_OVERRIDE, SAMPLED,
                RECEIVED)).isInstanceOf(IllegalArgumentException.class);

        TagValue notConnected = TagValue.withoutValue(PATH, DataType.FLOAT64, Quality.BAD_NOT_CONNECTED, SAMPLED);
        TagValue uncertain = new TagValue(PATH, null, DataType.FLOAT64, Quality.UNCERTAIN, SAMPLED, RECEIVED);
        assertThat(notConnected.valueIfPresent()).isEmpty();
        assertThat(notConnected.asDouble()).isEmpty();
        assertThat(uncertain.value()).isNull();
    }

    @Test
    void badQualityMayStillCarryAValue() {
        TagValue lastKnown = new TagValue(PATH, 21.5, DataType.FLOAT64, Quality.BAD_COMMUNICATION_ERROR, SAMPLED,
                RECEIVED);

        assertThat(lastKnown.valueIfPresent()).contains(21.5);
    }

    @Test
    void requiredFieldsAreNamedWhenMissing() {
        assertThatThrownBy(() -> new TagValue(null, 1, DataType.INT32, Quality.GOOD, SAMPLED, RECEIVED))
                .isInstanceOf(NullPointerException.class).hasMessage("path");
        assertThatThrownBy(() -> new TagValue(PATH, 1, null, Quality.GOOD, SAMPLED, RECEIVED))
                .isInstanceOf(NullPointerException.class).hasMessage("type");
        assertThatThrownBy(() -> new TagValue(PATH, 1, DataType.INT32, null, SAMPLED, RECEIVED))
                .isInstanceOf(NullPointerException.class).hasMessage("quality");
        assertThatThrownBy(() -> new TagValue(PATH, 1, DataType.INT32, Quality.GOOD, null, RECEIVED))
                .isInstanceOf(NullPointerException.class).hasMessage("sourceTime");
        assertThatThrownBy(() -> new TagValue(PATH, 1, DataType.INT32, Quality.GOOD, SAMPLED, null))
                .isInstanceOf(NullPointerException.class).hasMessage("serverTime");
    }

    @Test
    void asDoubleConvertsNumbersAndBooleansOnly() {
        assertThat(TagValue.good(PATH, 3, SAMPLED).asDouble()).contains(3.0);
        assertThat(TagValue.good(PATH, 3L, SAMPLED).asDouble()).contains(3.0);
        assertThat(TagValue.good(PATH, 2.5f, SAMPLED).asDouble()).contains(2.5);
        assertThat(TagValue.good(PATH, true, SAMPLED).asDouble()).contains(1.0);
        assertThat(TagValue.good(PATH, false, SAMPLED).asDouble()).contains(0.0);
        assertThat(TagValue.good(PATH, "on", SAMPLED).asDouble()).isEmpty();
        assertThat(TagValue.good(PATH, SAMPLED, SAMPLED).asDouble()).isEmpty();
    }

    @Test
    void withQualityKeepsValueAndSourceTimeAndTakesTheNewServerTime() {
        TagValue stale = TagValue.good(PATH, 21.5, SAMPLED).withQuality(Quality.UNCERTAIN_LAST_USABLE_VALUE, RECEIVED);

        assertThat(stale.value()).isEqualTo(21.5);
        assertThat(stale.quality()).isEqualTo(Quality.UNCERTAIN_LAST_USABLE_VALUE);
        assertThat(stale.sourceTime()).isEqualTo(SAMPLED);
        assertThat(stale.serverTime()).isEqualTo(RECEIVED);
    }

    @Test
    void withGoodQualityIsRejectedForAValueLessObservation() {
        TagValue notConnected = TagValue.withoutValue(PATH, DataType.INT32, Quality.BAD_NOT_CONNECTED, SAMPLED);

        assertThatThrownBy(() -> notConnected.withQuality(Quality.GOOD, RECEIVED))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valuesAreEqualByContent() {
        assertThat(TagValue.good(PATH, 1L, SAMPLED)).isEqualTo(TagValue.good(TagPath.of("plant1/oven/temp"), 1L, SAMPLED));
        assertThat(TagValue.good(PATH, 1L, SAMPLED)).isNotEqualTo(TagValue.good(PATH, 1, SAMPLED));
    }
}
