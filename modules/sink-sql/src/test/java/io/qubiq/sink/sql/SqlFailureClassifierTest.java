package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.error.ConfigurationException;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.error.PermanentException;
import java.io.EOFException;
import java.net.SocketTimeoutException;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The SQLState table of {@link SqlFailureClassifier}, one row per state or class, for each phase.
 * The real-server tests (SqlSinkClassificationTest) provoke the important ones for real.
 */
class SqlFailureClassifierTest {

    private final SqlFailureClassifier classifier = new SqlFailureClassifier(SqlSinkConfig.of("jdbc:postgresql://h/db"));

    private static SQLException state(String sqlState) {
        return new SQLException("ERROR: something (" + sqlState + ")", sqlState);
    }

    @ParameterizedTest(name = "{0} while executing is {1}")
    @CsvSource({
            "08006, TRANSIENT", "08001, TRANSIENT", "08003, TRANSIENT", "57P01, TRANSIENT", "57P02, TRANSIENT",
            "57P03, TRANSIENT", "53300, TRANSIENT", "53100, TRANSIENT", "58030, TRANSIENT", "25006, TRANSIENT",
            "40001, TRANSIENT", "40P01, TRANSIENT", "40002, TRANSIENT", "40003, UNKNOWN_OUTCOME",
            "57014, UNKNOWN_OUTCOME",
            "22001, PERMANENT", "22P02, PERMANENT", "23505, PERMANENT", "23514, PERMANENT", "23502, PERMANENT",
            "42P01, PERMANENT", "42601, PERMANENT", "42501, PERMANENT", "21000, PERMANENT", "0A000, PERMANENT",
            "P0001, PERMANENT", "3F000, PERMANENT", "44000, PERMANENT", "27000, PERMANENT", "2F005, PERMANENT",
            "XX000, UNKNOWN_OUTCOME", "25P02, UNKNOWN_OUTCOME", "55P03, UNKNOWN_OUTCOME", "HY000, UNKNOWN_OUTCOME"})
    void executionFailuresAreClassifiedBySqlState(String sqlState, FailureClass expected) {
        assertThat(classifier.executeFailed(state(sqlState), OptionalInt.of(3)).failureClass()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} at commit is {1}")
    @CsvSource({
            "40001, TRANSIENT", "40P01, TRANSIENT", "40003, UNKNOWN_OUTCOME",
            "23505, PERMANENT", "23503, PERMANENT",
            "08006, UNKNOWN_OUTCOME", "57P01, UNKNOWN_OUTCOME", "57014, UNKNOWN_OUTCOME", "XX000, UNKNOWN_OUTCOME"})
    void commitFailuresAreUnknownUnlessTheServerSaidItRolledBack(String sqlState, FailureClass expected) {
        GatewayException failure = classifier.commitFailed(state(sqlState));
        assertThat(failure.failureClass()).isEqualTo(expected);
        if (failure instanceof PermanentException permanent) {
            assertThat(permanent.rejected()).as("a deferred constraint names no row: the channel bisects").isEmpty();
            assertThat(permanent.othersWritten()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0} while connecting is {1}")
    @CsvSource({"08001, TRANSIENT", "53300, TRANSIENT", "57P03, TRANSIENT", "28P01, CONFIGURATION",
            "28000, CONFIGURATION", "3D000, CONFIGURATION", "XX000, TRANSIENT"})
    void connectionFailuresAreTransientUnlessTheLoginOrDatabaseIsWrong(String sqlState, FailureClass expected) {
        assertThat(classifier.connectFailed(state(sqlState)).failureClass()).isEqualTo(expected);
    }

    @Test
    void aWrongPasswordOrMissingDatabaseNamesTheKeyToFix() {
        SqlFailureClassifier withPassword = new SqlFailureClassifier(
                SqlSinkConfig.of("jdbc:postgresql://h/db").withCredentials("u", "p"));

        assertThat(((ConfigurationException) withPassword.connectFailed(state("28P01"))).key()).isEqualTo("password");
        assertThat(((ConfigurationException) classifier.connectFailed(state("28000"))).key()).isEqualTo("username");
        assertThat(((ConfigurationException) classifier.connectFailed(state("3D000"))).key()).isEqualTo("jdbc_url");
    }

    @Test
    void thePoolsAcquireTimeoutIsTransientAndKeepsTheDriversReason() {
        SQLException refused = new SQLException("Connection to 127.0.0.1:1 refused.", "08001");
        SQLTransientConnectionException timeout = new SQLTransientConnectionException(
                "sql-x - Connection is not available, request timed out after 1000ms", "08001", refused);
        timeout.setNextException(refused);

        GatewayException failure = classifier.connectFailed(timeout);

        assertThat(failure.failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(failure.getMessage()).contains("[08001] Connection to 127.0.0.1:1 refused.");
    }

    @Test
    void connectionExceptionTypesAndIoCausesAreTransientWithoutAnSqlState() {
        assertThat(classifier.executeFailed(new SQLTransientConnectionException("gone"), OptionalInt.empty())
                .failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(classifier.executeFailed(new SQLNonTransientConnectionException("closed"), OptionalInt.empty())
                .failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(classifier.executeFailed(new SQLException("I/O", null, new EOFException()), OptionalInt.empty())
                .failureClass()).isEqualTo(FailureClass.TRANSIENT);
        assertThat(classifier.commitFailed(new SQLException("I/O", null, new SocketTimeoutException()))
                .failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
        assertThat(classifier.executeFailed(new SQLException("odd"), OptionalInt.empty()).failureClass())
                .isEqualTo(FailureClass.UNKNOWN_OUTCOME);
    }

    @Test
    void aRejectedRowIsNamedWithTheServersReasonAndNothingCountsAsWritten() {
        SQLException server = new SQLException("ERROR: duplicate key value violates unique constraint \"t_pkey\"\n"
                + "  Detail: Key (id)=(7) already exists.", "23505");
        BatchUpdateException batch = new BatchUpdateException("Batch entry 2 INSERT ... was aborted: ...", "23505", 0,
                new int[] {-3, -3, -3, -3}, server);
        batch.setNextException(server);

        PermanentException failure = (PermanentException) classifier.executeFailed(batch, OptionalInt.of(12));

        assertThat(failure.rejected()).singleElement().satisfies(r -> {
            assertThat(r.index()).isEqualTo(12);
            assertThat(r.reason()).isEqualTo("[23505] ERROR: duplicate key value violates unique constraint"
                    + " \"t_pkey\" Detail: Key (id)=(7) already exists.");
        });
        assertThat(failure.othersWritten()).isFalse();
        assertThat(failure.getMessage()).startsWith("row 12 of the batch was rejected; nothing was committed");
    }

    @Test
    void aRejectedRowTheDriverDoesNotNameLeavesTheListEmptySoTheChannelBisects() {
        PermanentException failure = (PermanentException) classifier.executeFailed(state("22001"), OptionalInt.empty());

        assertThat(failure.rejected()).isEmpty();
        assertThat(failure.othersWritten()).isFalse();
    }

    @Test
    void theStateIsFoundOnNextExceptionsAndCausesAndCyclesEnd() {
        SQLException inner = new SQLException("inner", "40P01");
        SQLException outer = new SQLException("outer", (String) null, inner);
        SQLException cyclic = new SQLException("a");
        cyclic.setNextException(new SQLException("b"));
        cyclic.getNextException().initCause(cyclic);

        assertThat(SqlFailureClassifier.sqlState(outer)).contains("40P01");
        assertThat(SqlFailureClassifier.sqlState(cyclic)).isEmpty();
    }
}
