package io.qubiq.core.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.core.tag.TagPath;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WriteLimitsTest {

    private static final TagPath TAG = TagPath.of("tank/setpoint");
    private static final WriteLimits ZERO_TO_FIVE = new WriteLimits(Optional.of(0.0), Optional.of(5.0));

    @Test
    void withoutLimitsEveryValuePasses() {
        assertThatCode(() -> WriteLimits.NONE.check(TAG, "anything")).doesNotThrowAnyException();
        assertThatCode(() -> WriteLimits.NONE.check(TAG, Double.NaN)).doesNotThrowAnyException();
    }

    @Test
    void numbersWithinTheLimitsPassBothEndsIncludedAndNumericTextToo() {
        assertThatCode(() -> {
            ZERO_TO_FIVE.check(TAG, 0);
            ZERO_TO_FIVE.check(TAG, 5.0);
            ZERO_TO_FIVE.check(TAG, 3L);
            ZERO_TO_FIVE.check(TAG, " 2.5 ");
        }).doesNotThrowAnyException();
    }

    @Test
    void valuesOutsideAreRefusedNamingTagValueAndLimits() {
        assertThatThrownBy(() -> ZERO_TO_FIVE.check(TAG, 5.01)).isInstanceOf(WriteLimitException.class)
                .hasMessage("tag tank/setpoint accepts values from 0 to 5 (min 0, max 5): the value 5.01 is outside;"
                        + " nothing was sent");
        assertThatThrownBy(() -> new WriteLimits(Optional.of(-1.5), Optional.empty()).check(TAG, -2))
                .hasMessageContaining("of at least -1.5 (min -1.5)");
        assertThatThrownBy(() -> new WriteLimits(Optional.empty(), Optional.of(10.0)).check(TAG, "11"))
                .hasMessageContaining("of at most 10 (max 10)").hasMessageContaining("\"11\"");
    }

    @Test
    void nonNumbersAreRefusedClearlyAndALineBreakInTheValueIsEscaped() {
        assertThatThrownBy(() -> ZERO_TO_FIVE.check(TAG, true)).hasMessageContaining("the value true is not a number");
        assertThatThrownBy(() -> ZERO_TO_FIVE.check(TAG, Double.NaN)).hasMessageContaining("not a number");
        assertThatThrownBy(() -> ZERO_TO_FIVE.check(TAG, "1\nforged line")).hasMessageContaining("\"1\\nforged line\"")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aMinimumAboveTheMaximumOrAnInfiniteLimitIsAProblem() {
        assertThat(new WriteLimits(Optional.of(6.0), Optional.of(5.0)).problem())
                .hasValue("the minimum 6 is above the maximum 5");
        assertThat(new WriteLimits(Optional.of(Double.NEGATIVE_INFINITY), Optional.empty()).problem()).isPresent();
        assertThat(ZERO_TO_FIVE.problem()).isEmpty();
    }
}
