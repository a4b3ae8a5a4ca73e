package io.qubiq.app.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.testkit.postgres.PostgresServer;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.console.AuditAccess;
import io.qubiq.core.event.AuditAction;
import io.qubiq.core.event.AuditEvent;
import io.qubiq.testkit.questdb.ExecResult;
import io.qubiq.testkit.questdb.QuestDbExtension;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit journal in a whole gateway: an audited action published through the gateway's events is
 * found through {@link Gateway#audit()} after a restart on the same data directory, its channel
 * shows in the store-and-forward API, and with {@code forward_to} the entry also lands in a real
 * QuestDB as a row of {@code qubiq_audit}.
 */
@ExtendWith(QuestDbExtension.class)
class AuditJournalWiringTest {

    static QuestDbServer questDb;
    static final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private static final String BASE = TestOperators.AUTH_YAML + """
            http:
              port: 0
            logging:
              file_enabled: false
            """;

    private static GatewayConfig config(String yaml) throws Exception {
        return ConfigLoader.parse("test.yaml", BASE + yaml, GatewayConfig.class, Map.of());
    }

    private static AuditAccess.Query query(Optional<String> action) {
        return new AuditAccess.Query(Optional.empty(), Optional.empty(), Optional.empty(), action, Optional.empty(),
                Optional.empty(), OptionalLong.empty(), 50);
    }

    private static AuditEvent drop(String user) {
        return new AuditEvent(Instant.now().truncatedTo(ChronoUnit.MICROS), user, AuditAction.QUARANTINE_DROP,
                "connection/plant-db/quarantine/7", "dropped",
                details());
    }

    /** In a fixed order: the journal keeps the order details were given in. */
    private static Map<String, String> details() {
        Map<String, String> details = new java.util.LinkedHashMap<>();
        details.put(AuditAction.DETAIL_FROM, "10.1.2.3");
        details.put("items", "1");
        return details;
    }

    @Test
    void anAuditedActionIsFoundThroughTheJavaApiAfterTheGatewayRestarts() throws Exception {
        Path data = dir.resolve("data");
        try (Running first = Running.start(config(""), data)) {
            first.gateway.events().audit(drop("alice"));
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    first.gateway.audit().query(query(Optional.of("QUARANTINE_DROP"))).entries().size() == 1);
            assertThat(first.get("/api/v1/store-forward")).contains("\"connection\":\"audit\"");
            await().atMost(Duration.ofSeconds(10)).until(() -> first.get("/api/v1/store-forward/audit")
                    .contains("\"destination\":\"UP\""));
        }

        try (Running second = Running.start(config(""), data)) {
            AuditAccess.Page page = second.gateway.audit().query(query(Optional.of("QUARANTINE_DROP")));
            assertThat(page.entries()).hasSize(1);
            AuditAccess.Entry entry = page.entries().get(0);
            assertThat(entry.seq()).as("after the administrator's creation").isEqualTo(2);
            long aliceSeq = entry.seq();
            assertThat(entry.user()).isEqualTo("alice");
            assertThat(entry.from()).isEqualTo("10.1.2.3");
            assertThat(entry.action()).isEqualTo("quarantine_drop");
            assertThat(entry.target()).isEqualTo("connection/plant-db/quarantine/7");
            assertThat(entry.details()).containsEntry("items", "1");

            second.gateway.events().audit(drop("bob"));
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    second.gateway.audit().query(query(Optional.of("QUARANTINE_DROP"))).entries().size() == 2);
            List<AuditAccess.Entry> drops = second.gateway.audit().query(query(Optional.of("QUARANTINE_DROP")))
                    .entries();
            assertThat(drops).extracting(AuditAccess.Entry::user).containsExactly("bob", "alice");
            assertThat(drops.get(0).seq()).as("numbering goes on after the restart").isGreaterThan(aliceSeq);
        }
        assertThat(Files.list(data.resolve("audit").resolve("journal")).anyMatch(f -> f.toString().endsWith(".journal")))
                .isTrue();
        assertThat(data.resolve("connections").resolve("audit").resolve("buffer")).isDirectory();
    }

    @Test
    void anEventPublishedBeforeStartIsJournaledOnStart() throws Exception {
        DataDirectory data = DataDirectory.open(dir.resolve("early"));
        Gateway gateway = new Gateway(config(""), data, Clock.systemUTC());
        try {
            gateway.events().audit(drop("early-bird"));
            gateway.lifecycle().startAll();
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    !gateway.audit().query(query(Optional.of("QUARANTINE_DROP"))).entries().isEmpty());
            assertThat(gateway.audit().query(query(Optional.of("QUARANTINE_DROP"))).entries())
                    .extracting(AuditAccess.Entry::user).containsExactly("early-bird");
        } finally {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
            data.close();
        }
    }

    @Test
    void withForwardToEveryEntryAlsoReachesQuestDbAsARowOfTheAuditTable() throws Exception {
        GatewayConfig config = config("""
                outbound:
                  plant-questdb:
                    questdb: {address: "%s"}
                audit:
                  forward_to: plant-questdb
                """.formatted(questDb.ilpAddress()));
        try (Running running = Running.start(config, dir.resolve("forward"))) {
            running.gateway.events().audit(drop("carol"));
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    running.gateway.audit().query(query(Optional.of("QUARANTINE_DROP"))).entries().size() == 1);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
                try {
                    return !questDb.exec("SELECT user, action, target, remote, details, entry_id FROM qubiq_audit"
                            + " WHERE user = 'carol'").rows().isEmpty();
                } catch (RuntimeException e) {
                    return false; // the table appears with the first row
                }
            });
            ExecResult rows = questDb.exec("SELECT user, action, target, remote, details FROM qubiq_audit"
                    + " WHERE user = 'carol'");
            assertThat(rows.rows()).hasSize(1);
            assertThat(rows.rows().get(0)).containsExactly("carol", "quarantine_drop",
                    "connection/plant-db/quarantine/7", "10.1.2.3", "{\"from\":\"10.1.2.3\",\"items\":\"1\"}");
        }
    }

    @Test
    void withForwardToASqlConnectionEveryEntryAlsoReachesPostgres() throws Exception {
        try (PostgresServer postgres = PostgresServer.start(dir.resolve("postgres"))) {
            postgres.execute(AuditRows.SQL_TABLE);
            GatewayConfig config = config("""
                    outbound:
                      plant-db:
                        sql: {jdbc_url: "%s", username: postgres}
                    audit:
                      forward_to: plant-db
                    """.formatted(postgres.jdbcUrl()));
            try (Running running = Running.start(config, dir.resolve("forward-sql"))) {
                running.gateway.events().audit(drop("dora"));
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() ->
                        postgres.queryLong("SELECT count(*) FROM qubiq_audit WHERE user_name = 'dora'") == 1);
                List<List<Object>> rows = postgres.query("SELECT action, target, remote, details FROM qubiq_audit"
                        + " WHERE user_name = 'dora'");
                assertThat(rows.get(0)).containsExactly("quarantine_drop", "connection/plant-db/quarantine/7",
                        "10.1.2.3", "{\"from\":\"10.1.2.3\",\"items\":\"1\"}");
                assertThat(running.gateway.audit().query(query(Optional.of("QUARANTINE_DROP"))).entries())
                        .as("the local journal has it too").hasSize(1);
            }
        }
    }

    @Test
    void forwardToMustNameAQuestDbOrSqlConnection() {
        assertThatThrownBy(() -> config("""
                outbound:
                  broker:
                    mqtt: {host: 127.0.0.1}
                audit:
                  forward_to: broker
                """)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("questdb or sql connection only")
                .satisfies(e -> assertThat(((ConfigException) e).problems()).extracting(ConfigProblem::keyPath)
                        .contains("audit.forward_to"));
        assertThatThrownBy(() -> config("""
                audit:
                  forward_to: nowhere
                """)).isInstanceOf(ConfigException.class).hasMessageContaining("no outbound connection \"nowhere\"");
        assertThatThrownBy(() -> config("""
                audit:
                  store_and_forward: {overflow_policy: drop_oldest}
                """)).isInstanceOf(ConfigException.class).hasMessageContaining("never drops");
    }

    /** A started gateway on a data directory; closing stops it and releases the directory. */
    private record Running(Gateway gateway, DataDirectory data) implements AutoCloseable {

        static Running start(GatewayConfig config, Path dir) throws Exception {
            DataDirectory data = DataDirectory.open(dir);
            Gateway gateway = new Gateway(config, data, Clock.systemUTC());
            gateway.lifecycle().startAll();
            return new Running(gateway, data);
        }

        String get(String path) throws Exception {
            return TestOperators.admin(gateway).get(path).body();
        }

        @Override
        public void close() throws Exception {
            assertThat(gateway.lifecycle().stopAll(Duration.ofSeconds(30)).timedOut()).isFalse();
            gateway.closeMetrics();
            data.close();
        }
    }
}
