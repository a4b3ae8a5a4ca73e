package io.qubiq.sink.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.testkit.postgres.PostgresExtension;
import io.qubiq.testkit.postgres.PostgresServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class PostgresServerTest {

    static PostgresServer postgres;

    @Test
    void aKilledServerRestartsOnTheSamePortWithItsCommittedData() {
        postgres.execute("CREATE TABLE kept (n int)", "INSERT INTO kept VALUES (1), (2)");
        long pid = postgres.pid().orElseThrow();

        postgres.kill();
        assertThat(postgres.isRunning()).isFalse();
        assertThat(ProcessHandle.of(pid)).isEmpty();

        postgres.restart();
        assertThat(postgres.pid()).isPresent().isNotEqualTo(java.util.Optional.of(pid));
        assertThat(postgres.queryLong("SELECT count(*) FROM kept")).isEqualTo(2);
    }
}
