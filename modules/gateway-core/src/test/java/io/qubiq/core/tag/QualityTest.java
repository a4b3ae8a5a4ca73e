package io.qubiq.core.tag;

import io.qubiq.core.tag.Quality.Severity;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class QualityTest {

    @Test
    void namedCodesHaveTheSeverityOfTheirTopTwoBits() {
        assertThat(Quality.GOOD.severity()).isEqualTo(Severity.GOOD);
        assertThat(Quality.GOOD_LOCAL_OVERRIDE.severity()).isEqualTo(Severity.GOOD);
        assertThat(Quality.UNCERTAIN.severity()).isEqualTo(Severity.UNCERTAIN);
        assertThat(Quality.UNCERTAIN_LAST_USABLE_VALUE.severity()).isEqualTo(Severity.UNCERTAIN);
        assertThat(Quality.UNCERTAIN_NO_COMMUNICATION_LAST_USABLE_VALUE.severity()).isEqualTo(Severity.UNCERTAIN);
        assertThat(Quality.UNCERTAIN_SENSOR_NOT_ACCURATE.severity()).isEqualTo(Severity.UNCERTAIN);
        for (Quality bad : new Quality[] {Quality.BAD, Quality.BAD_COMMUNICATION_ERROR, Quality.BAD_TIMEOUT,
                Quality.BAD_NO_COMMUNICATION, Quality.BAD_WAITING_FOR_INITIAL_DATA, Quality.BAD_TYPE_MISMATCH,
                Quality.BAD_CONFIGURATION_ERROR, Quality.BAD_NOT_CONNECTED, Quality.BAD_DEVICE_FAILURE,
                Quality.BAD_SENSOR_FAILURE, Quality.BAD_OUT_OF_SERVICE}) {
            assertThat(bad.severity()).as(bad.label()).isEqualTo(Severity.BAD);
            assertThat(bad.isBad()).isTrue();
            assertThat(bad.isGood()).isFalse();
        }
    }

    @Test
    void arbitraryCodesTakeTheirSeverityFromTheTopTwoBits() {
        assertThat(new Quality(0x00AB0000).severity()).isEqualTo(Severity.GOOD);
        assertThat(new Quality(0x40AB0000).severity()).isEqualTo(Severity.UNCERTAIN);
        assertThat(new Quality(0x80AB0000).severity()).isEqualTo(Severity.BAD);
        assertThat(new Quality(0xC0000000).severity()).as("reserved pattern 11 counts as bad").isEqualTo(Severity.BAD);
        assertThat(new Quality(-1).isBad()).isTrue();
    }

    @Test
    void uncertainIsNeitherGoodNorBad() {
        assertThat(Quality.UNCERTAIN.isGood()).isFalse();
        assertThat(Quality.UNCERTAIN.isBad()).isFalse();
        assertThat(Quality.GOOD.isGood()).isTrue();
    }

    @Test
    void labelIsTheOpcUaNameForKnownCodes() {
        assertThat(Quality.GOOD.label()).isEqualTo("Good");
        assertThat(Quality.UNCERTAIN_LAST_USABLE_VALUE.label()).isEqualTo("UncertainLastUsableValue");
        assertThat(Quality.BAD_NOT_CONNECTED.label()).isEqualTo("BadNotConnected");
        assertThat(new Quality(0x800A0000)).hasToString("BadTimeout");
    }

    @Test
    void labelIsSeverityAndHexCodeForUnknownCodes() {
        assertThat(new Quality(0x80AB0000).label()).isEqualTo("Bad(0x80AB0000)");
        assertThat(new Quality(0x40000001).label()).isEqualTo("Uncertain(0x40000001)");
        assertThat(new Quality(0x00000042)).hasToString("Good(0x00000042)");
    }

    @Test
    void qualitiesAreEqualByCode() {
        assertThat(new Quality(0x80050000)).isEqualTo(Quality.BAD_COMMUNICATION_ERROR);
    }
}
