package io.qubiq.historian;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.questdb.exec.ExecClient;
import io.qubiq.questdb.exec.SqlResult;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The history tables' retention against a real QuestDB: set at creation, and brought to the configured one at start. */
@ExtendWith(QuestDbExtension.class)
class HistoryTtlTest {

    static QuestDbServer questDb;

    private ExecClient exec() {
        return ExecClient.of(questDb.ilpAddress(), Duration.ofSeconds(10));
    }

    /** Each of the schema's tables as "name value unit", from QuestDB's tables(). */
    private List<String> ttls(HistorySchema schema) throws Exception {
        SqlResult result = exec().exec("SELECT table_name, ttlValue, ttlUnit FROM tables()");
        return result.rows().stream()
                .filter(row -> schema.tables().contains(String.valueOf(row.get(0))))
                .map(row -> row.get(0) + " " + row.get(1) + " " + row.get(2))
                .sorted()
                .toList();
    }

    @Test
    void newTablesKeepNinetyDaysByDefault() throws Exception {
        HistorySchema schema = new HistorySchema("ttl_new", PartitionUnit.DAY, HistorianConfig.defaults().ttlDays());
        assertThat(schema.create(exec())).as("created with it: nothing to change").isEmpty();
        assertThat(ttls(schema)).hasSize(5).allSatisfy(ttl -> assertThat(ttl).endsWith(" 90 DAY"));
    }

    @Test
    void existingTablesWithoutATtlAreAlteredAtStartAndSaySo() throws Exception {
        HistorySchema before = new HistorySchema("ttl_old", PartitionUnit.WEEK, 0);
        before.create(exec());
        assertThat(ttls(before)).allSatisfy(ttl -> assertThat(ttl).endsWith(" 0 HOUR"));

        HistorySchema now = new HistorySchema("ttl_old", PartitionUnit.WEEK, 90);
        List<String> changed = now.create(exec());
        assertThat(changed).hasSize(5).allSatisfy(change -> assertThat(change).endsWith(": none -> 13 weeks"));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(ttls(now)).allSatisfy(ttl -> assertThat(ttl).endsWith(" 13 WEEK")));
        assertThat(now.create(exec())).as("the next start has nothing to change").isEmpty();

        HistorySchema kept = new HistorySchema("ttl_old", PartitionUnit.WEEK, 0);
        assertThat(kept.create(exec())).hasSize(5)
                .allSatisfy(change -> assertThat(change).endsWith(": 13 weeks -> none"));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(ttls(kept)).allSatisfy(ttl -> assertThat(ttl).endsWith(" 0 HOUR")));
    }
}
