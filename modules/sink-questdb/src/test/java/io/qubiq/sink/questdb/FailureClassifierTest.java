package io.qubiq.sink.questdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import io.questdb.client.cutlass.line.LineSenderException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The message shapes of questdb-client 1.0.1 that the real-server tests cannot provoke cheaply
 * (5xx, 401, 404, TLS). The shapes the server does produce are covered by the integration tests.
 */
class FailureClassifierTest {

    private static final String FAILED = "Could not flush buffer: http://127.0.0.1:9000/write?precision=n Connection Failed: ";
    private final FailureClassifier classifier = new FailureClassifier(QuestDbSinkConfig.defaults());

    private GatewayException flush(String message) {
        return classifier.flushFailed(new LineSenderException(message), 10);
    }

    @Test
    void transportFailuresBeforeAnAnswerAreTransientUnlessTheRequestTimedOut() {
        assertThat(flush(FAILED + "could not connect to host [host=127.0.0.1, port=9000, errno=111]").failureClass())
                .isEqualTo(FailureClass.TRANSIENT);
        assertThat(flush(FAILED + "peer disconnect [errno=104]").failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(flush(FAILED + "could not resolve host [host=nowhere]").failureClass())
                .isEqualTo(FailureClass.TRANSIENT);
        assertThat(flush(FAILED + "timed out [errno=11]").failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
        assertThat(flush(FAILED + "Request timed out").failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
        assertThat(flush(FAILED + "could not start TLS session [fd=12, error=1]").failureClass())
                .isEqualTo(FailureClass.CONFIGURATION);
    }

    @Test
    void serverErrorsAndThrottlingAreTransient() {
        for (String status : new String[] {"500", "503", "507", "408", "429"}) {
            assertThat(flush("Could not flush buffer: busy [http-status=" + status + "]").failureClass())
                    .as(status).isEqualTo(FailureClass.TRANSIENT);
        }
    }

    @Test
    void credentialsAndEndpointMistakesAreConfigurationErrorsNamingTheKey() {
        GatewayException auth = flush("Could not flush buffer: HTTP endpoint authentication error [http-status=401]");
        GatewayException notIlp = flush("Could not flush buffer: HTTP endpoint does not support ILP. [http-status=405]");
        FailureClassifier withToken = new FailureClassifier(new QuestDbSinkConfig("h:1", false, true,
                Optional.of("t"), Optional.empty(), Optional.empty(), 1, 0, false));

        assertThat(((ConfigurationException) auth).key()).isEqualTo("username");
        assertThat(((ConfigurationException) withToken.flushFailed(new LineSenderException(
                "Could not flush buffer: HTTP endpoint authentication error [http-status=403]"), 1)).key())
                .isEqualTo("token");
        assertThat(((ConfigurationException) notIlp).key()).isEqualTo("address");
        assertThat(((ConfigurationException) flush("Could not flush buffer: Not Found [http-status=404]")).key())
                .isEqualTo("address");
    }

    @Test
    void aRejectedLineNamesItsRowAndNeverClaimsAPartialWrite() {
        PermanentException e = (PermanentException) flush("Could not flush buffer: failed to parse line protocol:"
                + "errors encountered on line(s):error in line 3: table: t, column: v; cast error [http-status=400,"
                + " id: abc-1, code: invalid, line: 3]");

        assertThat(e.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(2);
        assertThat(e.othersWritten()).isFalse();
    }

    @Test
    void aRejectionWithoutAUsableLineLeavesTheCulpritToBisection() {
        PermanentException noLine = (PermanentException) flush("Could not flush buffer: too big [http-status=413]");
        PermanentException outOfBatch = (PermanentException) flush(
                "Could not flush buffer: bad [http-status=400, code: invalid, line: 11]");

        assertThat(noLine.rejected()).isEmpty();
        assertThat(outOfBatch.rejected()).isEmpty();
        assertThat(outOfBatch.othersWritten()).isFalse();
    }

    @Test
    void anUnrecognisedFlushFailureMayHaveCommitted() {
        assertThat(flush("something new").failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
    }

    @Test
    void aRowTheClientRefusesBeforeSendingIsNamed() {
        PermanentException e = (PermanentException) classifier.appendFailed(
                new LineSenderException("column name contains an illegal char"), 4);
        PermanentException tooBig = (PermanentException) classifier.appendFailed(
                new LineSenderException("transaction is too large, either flush more frequently or increase buffer"
                        + " size \"max_buf_size\""), 4);

        assertThat(e.rejected()).extracting(PermanentException.RejectedItem::index).containsExactly(4);
        assertThat(tooBig.rejected()).isEmpty();
    }
}
