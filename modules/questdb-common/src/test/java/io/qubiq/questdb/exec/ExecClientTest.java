package io.qubiq.questdb.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qubiq.questdb.process.LoopbackPorts;
import io.qubiq.questdb.process.QuestDbLaunch;
import io.qubiq.questdb.process.QuestDbProcess;
import io.qubiq.questdb.process.TestServers;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The {@code /exec} client and its JSON reader against a real QuestDB (one child JVM for the class). */
class ExecClientTest {

    static Path dir;
    static Process questDb;
    static ExecClient client;

    @BeforeAll
    static void startQuestDb() throws Exception {
        dir = Files.createTempDirectory("questdb-exec-");
        int http = LoopbackPorts.take(1).get(0);
        QuestDbLaunch launch = TestServers.launch(dir, http);
        launch.prepare();
        questDb = launch.processBuilder().start();
        assertThat(QuestDbProcess.awaitReady(questDb, http, Duration.ofSeconds(60), Duration.ofMillis(100)))
                .isEqualTo(QuestDbProcess.Readiness.READY);
        client = ExecClient.of("127.0.0.1:" + http, Duration.ofSeconds(10));
    }

    @AfterAll
    static void stopQuestDb() throws Exception {
        if (questDb != null && !QuestDbProcess.terminate(questDb.toHandle(), Duration.ofSeconds(30))) {
            QuestDbProcess.kill(questDb.toHandle(), Duration.ofSeconds(10));
        }
    }

    @Test
    void aDdlStatementAnswersAnEmptyResult() throws Exception {
        SqlResult result = client.exec("CREATE TABLE ddl_only (ts TIMESTAMP, v LONG) TIMESTAMP(ts) PARTITION BY DAY WAL");

        assertThat(result.columns()).isEmpty();
        assertThat(result.rows()).isEmpty();
    }

    @Test
    void valuesOfEveryKindComeBackWithTheirColumnsTypesNullsEscapesAndUnicode() throws Exception {
        client.exec("CREATE TABLE kinds (ts TIMESTAMP, tag SYMBOL, n LONG, v DOUBLE, ok BOOLEAN, s VARCHAR)"
                + " TIMESTAMP(ts) PARTITION BY DAY BYPASS WAL");
        String text = "quote \" backslash \\ slash / Kühler 温度 \uD83D\uDE00 it's";
        client.exec("INSERT INTO kinds VALUES ('2026-01-01T00:00:00.000001Z', 'Line1/Motor', 9223372036854775807,"
                + " -1.5E-7, true, " + SqlText.literal(text) + ")");
        client.exec("INSERT INTO kinds VALUES ('2026-01-01T00:00:01Z', null, null, null, false, null)");

        SqlResult result = client.exec("select * from kinds order by ts");

        assertThat(result.columns()).containsExactly("ts", "tag", "n", "v", "ok", "s");
        assertThat(result.types()).containsExactly("TIMESTAMP", "SYMBOL", "LONG", "DOUBLE", "BOOLEAN", "VARCHAR");
        assertThat(result.rows().get(0)).containsExactly("2026-01-01T00:00:00.000001Z", "Line1/Motor",
                Long.MAX_VALUE, -1.5E-7, true, text);
        assertThat(result.rows().get(1)).containsExactly("2026-01-01T00:00:01.000000Z", null, null, null, false, null);
        assertThat(result.indexOf("ok")).isEqualTo(4);
    }

    @Test
    void controlCharactersInStoredTextComeBackEscapedAndDecoded() throws Exception {
        String sql = "select 'a\nb\tc\u0001d' s";
        assertThat(client.send(sql).body()).as("QuestDB escapes them").contains("\"a\\nb\\tc\\u0001d\"");

        SqlResult result = client.exec(sql);

        assertThat(result.rows().get(0)).containsExactly("a\nb\tc\u0001d");
    }

    @Test
    void aTwoDimensionalArrayComesBackAsNestedLists() throws Exception {
        SqlResult result = client.exec("select ARRAY[[1.0, 2.5], [-3.0, 4.0]] a");

        assertThat(result.types().get(0)).startsWith("ARRAY");
        assertThat(result.rows().get(0)).containsExactly(List.of(List.of(1.0, 2.5), List.of(-3.0, 4.0)));
    }

    @Test
    void aStatementQuestDbRefusesIsAnSqlExceptionThatIsNotUnreachable() {
        assertThatThrownBy(() -> client.exec("select * from no_such_table"))
                .isInstanceOf(SqlException.class)
                .hasMessageStartingWith("QuestDB refused \"select * from no_such_table\": ")
                .hasMessageContaining("does not exist")
                .satisfies(e -> assertThat(((SqlException) e).unreachable()).isFalse());
    }

    @Test
    void aServerThatIsNotListeningIsAnSqlExceptionMarkedUnreachable() {
        ExecClient closed = new ExecClient(URI.create("http://127.0.0.1:" + LoopbackPorts.take(1).get(0)),
                Duration.ofSeconds(2), Duration.ofSeconds(2), Optional.empty());

        assertThatThrownBy(() -> closed.exec("select 1")).isInstanceOf(SqlException.class)
                .hasMessageContaining("unreachable")
                .satisfies(e -> assertThat(((SqlException) e).unreachable()).isTrue());
    }

    @Test
    void sendReturnsTheAnswerAsItCameWhateverItsStatus() throws Exception {
        HttpResponse<String> refused = client.send("select * from no_such_table");

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(Json.parse(refused.body())).isInstanceOfSatisfying(Map.class,
                answer -> assertThat(answer.containsKey("error")).isTrue());
        assertThat(refused.request().uri().getRawQuery()).isEqualTo("query=select+*+from+no_such_table");
    }

    @Test
    void basicAuthorizationIsTheBase64OfUserColonPassword() {
        assertThat(ExecClient.basic("admin", "quest")).isEqualTo("Basic YWRtaW46cXVlc3Q=");
    }
}
