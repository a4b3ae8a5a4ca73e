package io.qubiq.core.error;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailureClassTest {

    @Test
    void transientFailureMeansRetryTheSameBatch() {
        ConnectException refused = new ConnectException("connection refused");
        TransientException failure = new TransientException("questdb unreachable", refused);

        assertThat(failure.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(failure).hasMessage("questdb unreachable").hasCause(refused);
        assertThat(new TransientException("broker down")).hasNoCause();
    }

    @Test
    void permanentFailureMeansQuarantineTheItems() {
        PermanentException failure = new PermanentException("column type mismatch", new IOException("22P02"));

        assertThat(failure.failureClass()).isEqualTo(FailureClass.PERMANENT);
        assertThat(failure).hasMessage("column type mismatch").hasCauseInstanceOf(IOException.class);
    }

    @Test
    void unknownOutcomeMeansMaybeCommitted() {
        UnknownOutcomeException failure = new UnknownOutcomeException("no reply after send",
                new SocketTimeoutException("read timed out"));

        assertThat(failure.failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
        assertThat(failure).hasCauseInstanceOf(SocketTimeoutException.class);
    }

    @Test
    void configurationFailureNamesTheKeyToFix() {
        ConfigurationException failure = new ConfigurationException("connections.plc1.endpoint_url",
                "not a URL: opc.tcp//plc1");

        assertThat(failure.failureClass()).isEqualTo(FailureClass.CONFIGURATION);
        assertThat(failure.key()).isEqualTo("connections.plc1.endpoint_url");
        assertThat(failure).hasMessage("connections.plc1.endpoint_url: not a URL: opc.tcp//plc1").hasNoCause();
    }

    @Test
    void eachPermittedExceptionTypeMapsToItsOwnFailureClass() {
        List<Class<?>> permitted = Arrays.asList(GatewayException.class.getPermittedSubclasses());

        assertThat(permitted).containsExactlyInAnyOrder(TransientException.class, PermanentException.class,
                UnknownOutcomeException.class, ConfigurationException.class);
        assertThat(FailureClass.values()).hasSize(permitted.size());
        assertThat(List.of(new TransientException("t"), new PermanentException("p", null),
                new UnknownOutcomeException("u", null), new ConfigurationException("k", "c")))
                .extracting(GatewayException::failureClass)
                .containsExactlyInAnyOrder(FailureClass.values());
    }

    @Test
    void gatewayExceptionsAreChecked() {
        assertThat(Exception.class).isAssignableFrom(GatewayException.class);
        assertThat(RuntimeException.class.isAssignableFrom(GatewayException.class)).isFalse();
    }
}
