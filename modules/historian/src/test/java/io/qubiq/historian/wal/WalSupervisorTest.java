package io.qubiq.historian.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.core.event.WalSuspendedAlarm;
import io.qubiq.historian.HistorySchema;
import io.qubiq.historian.PartitionUnit;
import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.testkit.RecordingEvents;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(QuestDbExtension.class)
class WalSupervisorTest {

    static QuestDbServer questDb;

    final RecordingEvents events = new RecordingEvents();
    WalSupervisor supervisor;

    /** The historian's tables under {@code prefix}, created for real, and a fast supervisor over them. */
    String start(String prefix, WalSupervisorConfig config) throws Exception {
        ExecClient exec = ExecClient.of(questDb.ilpAddress(), Duration.ofSeconds(10));
        HistorySchema schema = new HistorySchema(prefix, PartitionUnit.DAY, 0);
        schema.create(exec);
        String table = prefix + "_double";
        insert(table, 1);
        await().until(() -> walRow(table).value(0, "writerTxn").equals(1L));
        supervisor = new WalSupervisor(exec, schema.tables(), config, events, Clock.systemUTC());
        supervisor.start();
        return table;
    }

    static WalSupervisorConfig fast() {
        return WalSupervisorConfig.defaults().withPolling(50, 100, 400);
    }

    @AfterEach
    void stop() throws Exception {
        if (supervisor != null) {
            supervisor.stop();
        }
    }

    @Test
    void tableSuspendedForARecoverableCauseIsResumedAndItsQueuedRowsApplied() throws Exception {
        String table = start("wal_disk", fast());

        ddl("ALTER TABLE " + table + " SUSPEND WAL WITH 28, 'No space left on device'");
        assertThat(walRow(table).value(0, "errorTag")).isEqualTo("DISK FULL");
        insert(table, 2);

        await().atMost(Duration.ofSeconds(10)).until(() -> !suspended(table) && count(table) == 2);
        // the supervisor's own view catches up on its next poll
        await().atMost(Duration.ofSeconds(10)).until(() -> !status(table).suspended() && status(table).writerTxn() == 2);
        WalTableStatus status = status(table);
        assertThat(status.autoResumesTotal()).isEqualTo(1);
        assertThat(status.writerTxn()).isEqualTo(2);
        assertThat(status.poisoned()).isFalse();
        assertThat(events.alarms()).isEmpty();
    }

    @Test
    void nonRecoverableCauseRaisesTheAlarmOnceAndIsNotResumedUntilTheOperatorSkipsIt() throws Exception {
        String table = start("wal_poison", fast());

        ddl("ALTER TABLE " + table + " SUSPEND WAL WITH 5, 'invalid WAL segment'");
        insert(table, 2);

        await().atMost(Duration.ofSeconds(10)).until(() -> events.alarms(WalSuspendedAlarm.class).size() == 1);
        long pollsAtAlarm = supervisor.polls();
        await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.polls() >= pollsAtAlarm + 10);
        assertThat(suspended(table)).as("never resumed automatically").isTrue();
        List<WalSuspendedAlarm> alarms = events.alarms(WalSuspendedAlarm.class);
        assertThat(alarms).hasSize(1);
        WalSuspendedAlarm alarm = alarms.get(0);
        assertThat(alarm.active()).isTrue();
        assertThat(alarm.table()).isEqualTo(table);
        assertThat(alarm.key()).isEqualTo("wal-suspended/" + table);
        assertThat(alarm.errorMessage()).isEqualTo("invalid WAL segment");
        assertThat(alarm.message()).contains(table, "invalid WAL segment", "transaction 2");
        assertThat(status(table).poisoned()).isTrue();
        assertThat(status(table).autoResumes()).isZero();

        WalTableStatus after = supervisor.resumeFromNextTransaction(table, "alice");

        assertThat(after.suspended()).isFalse();
        assertThat(suspended(table)).isFalse();
        List<AuditEvent> audits = events.audits();
        assertThat(audits).hasSize(1);
        assertThat(audits.get(0).action()).isEqualTo(AuditAction.WAL_RESUME_SKIP);
        assertThat(audits.get(0).user()).isEqualTo("alice");
        assertThat(audits.get(0).target()).isEqualTo("historian/wal/" + table);
        assertThat(audits.get(0).outcome()).isEqualTo("resumed from transaction 3");
        assertThat(audits.get(0).details()).containsEntry("skipped_txn", "2");
        await().atMost(Duration.ofSeconds(10)).until(() -> events.alarms(WalSuspendedAlarm.class).size() == 2);
        assertThat(events.alarms(WalSuspendedAlarm.class).get(1).active()).as("cleared").isFalse();

        assertThat(count(table)).as("the row of the skipped transaction 2 is not applied").isEqualTo(1);
        insert(table, 3);
        await().atMost(Duration.ofSeconds(10)).until(() -> count(table) == 2);
    }

    @Test
    void tableThatSuspendsAgainAtTheSameTransactionIsTreatedAsPoisonAndAlarmedOnce() throws Exception {
        String table = start("wal_again", fast().withResumeAttemptsPerTxn(1));

        ddl("ALTER TABLE " + table + " SUSPEND WAL WITH 24, 'Too many open files'");
        await().atMost(Duration.ofSeconds(10)).until(() -> status(table).autoResumesTotal() == 1 && !suspended(table));
        ddl("ALTER TABLE " + table + " SUSPEND WAL WITH 24, 'Too many open files'");

        await().atMost(Duration.ofSeconds(10)).until(() -> events.alarms(WalSuspendedAlarm.class).size() == 1);
        long pollsAtAlarm = supervisor.polls();
        await().atMost(Duration.ofSeconds(10)).until(() -> supervisor.polls() >= pollsAtAlarm + 10);
        assertThat(suspended(table)).isTrue();
        assertThat(events.alarms(WalSuspendedAlarm.class)).hasSize(1);
        assertThat(events.alarms(WalSuspendedAlarm.class).get(0).reason()).contains("same transaction");
        assertThat(status(table).poisoned()).isTrue();
        assertThat(status(table).cause()).contains(SuspensionCause.TOO_MANY_OPEN_FILES);
    }

    @Test
    void operatorActionRefusesTablesTheHistorianDoesNotOwnAndAuditsWhenThereIsNothingToSkip() throws Exception {
        String table = start("wal_op", fast());

        assertThatThrownBy(() -> supervisor.resumeFromNextTransaction("other; DROP TABLE x", "bob"))
                .isInstanceOf(IllegalArgumentException.class);
        WalTableStatus status = supervisor.resumeFromNextTransaction(table, "bob");

        assertThat(status.suspended()).isFalse();
        assertThat(events.audits()).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo("not suspended; nothing skipped");
            assertThat(a.user()).isEqualTo("bob");
        });
    }

    @Test
    void writerTrailingItsSequencerBeyondTheThresholdIsFlaggedAsLagging() throws Exception {
        String table = start("wal_lag", fast().withWriterLagThresholdTxn(2));
        supervisor.stop();
        ddl("ALTER TABLE " + table + " SUSPEND WAL");
        for (int i = 2; i < 6; i++) {
            insert(table, i);
        }

        supervisor.pollOnce();
        assertThat(status(table).sequencerTxn() - status(table).writerTxn()).isEqualTo(4);
        assertThat(status(table).lagging()).isTrue();

        ddl("ALTER TABLE " + table + " RESUME WAL");
        await().atMost(Duration.ofSeconds(10)).until(() -> count(table) == 5);
        supervisor.pollOnce();
        assertThat(status(table).lagging()).isFalse();
    }

    WalTableStatus status(String table) {
        return supervisor.status().stream().filter(s -> s.table().equals(table)).findFirst().orElseThrow();
    }

    static void insert(String table, int i) {
        ddl("INSERT INTO " + table + " (ts, tag, value, quality, source_ts, server_ts) VALUES"
                + " ('2026-05-01T00:00:0" + i + "Z', 'w/x', " + i + ".0, 0, '2026-05-01T00:00:00Z',"
                + " '2026-05-01T00:00:00Z')");
    }

    /** Statements without a result set (testkit's exec expects one). */
    static void ddl(String sql) {
        try {
            ExecClient.of(questDb.ilpAddress(), Duration.ofSeconds(10)).exec(sql);
        } catch (io.qubiq.questdb.exec.SqlException e) {
            throw new IllegalStateException(e);
        }
    }

    static ExecResult walRow(String table) {
        return questDb.exec("SELECT * FROM wal_tables() WHERE name = '" + table + "'");
    }

    static boolean suspended(String table) {
        return Boolean.TRUE.equals(walRow(table).value(0, "suspended"));
    }

    static long count(String table) {
        return ((Number) questDb.exec("SELECT count() FROM " + table).value(0, "count()")).longValue();
    }
}
