package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReconnectBackoffTest {

    @Test
    void waitDoublesUpToTheMaximumAndResetsAfterSuccess() {
        ReconnectBackoff backoff = new ReconnectBackoff(100, 500);
        assertThat(backoff.nextDelayMs()).isEqualTo(100);
        assertThat(backoff.nextDelayMs()).isEqualTo(200);
        assertThat(backoff.nextDelayMs()).isEqualTo(400);
        assertThat(backoff.nextDelayMs()).isEqualTo(500);
        assertThat(backoff.nextDelayMs()).isEqualTo(500);
        backoff.reset();
        assertThat(backoff.nextDelayMs()).isEqualTo(100);
    }
}
