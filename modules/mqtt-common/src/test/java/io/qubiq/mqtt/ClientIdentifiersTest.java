package io.qubiq.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.config.ConfigChecked.Violation;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientIdentifiersTest {

    @Test
    void aDerivedIdentifierKeepsLettersDigitsUnderscoreDotAndDashAndReplacesTheRest() {
        assertThat(ClientIdentifiers.derived("qubiq-sink-cloud broker/1")).isEqualTo("qubiq-sink-cloud_broker_1");
        assertThat(ClientIdentifiers.derived("qubiq-gw.1-Line_2")).isEqualTo("qubiq-gw.1-Line_2");
        assertThat(ClientIdentifiers.derived("qubiq-hallé")).isEqualTo("qubiq-hall_");
    }

    @Test
    void aBlankConfiguredIdentifierIsAViolationAndALeftOutOneIsNot() {
        assertThat(ClientIdentifiers.violation(Optional.of(" ")))
                .contains(new Violation("client_id", "must not be empty; leave it out to derive one"));
        assertThat(ClientIdentifiers.violation(Optional.empty())).isEmpty();
        assertThat(ClientIdentifiers.violation(Optional.of("plant-7"))).isEmpty();
    }
}
