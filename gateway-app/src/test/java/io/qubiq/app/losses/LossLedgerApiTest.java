package io.qubiq.app.losses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.GatewayConfig;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigLoader;
import io.qubiq.core.event.DataLoss;
import io.qubiq.core.event.LossReason;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.Subscription;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.testkit.http.ConsoleClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss ledger through a whole gateway and its HTTP API: a real tag-bus overflow lands in
 * {@code GET /api/v1/losses}, in the Prometheus counters and in a data-lost alarm; an operator's drop is
 * journaled with the user and raises no alarm; the ledger survives a restart; bad parameters are refused
 * naming the parameter; reading needs "View connections".
 */
class LossLedgerApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String YAML = TestOperators.AUTH_YAML + """
            http:
              port: 0
            logging:
              file_enabled: false
            losses:
              max_bytes: 1048576
            """;

    @TempDir
    Path dir;
    private DataDirectory data;
    private Gateway gateway;
    private final ObjectMapper json = new ObjectMapper();

    private ConsoleClient start() throws Exception {
        GatewayConfig config = ConfigLoader.parse("test.yaml", YAML, GatewayConfig.class, Map.of());
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(config, data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        return TestOperators.admin(gateway);
    }

    private void stop() throws Exception {
        if (gateway != null) {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
            gateway = null;
        }
        if (data != null) {
            data.close();
            data = null;
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        stop();
    }

    private JsonNode body(HttpResponse<String> answer) throws Exception {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return json.readTree(answer.body());
    }

    @Test
    void aTagBusOverflowIsInTheLedgerTheMetricsAndADataLostAlarm() throws Exception {
        ConsoleClient admin = start();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Subscription slow = gateway.tagBus().subscribe(SubscriptionSpec.of("slow-consumer", 5,
                OverflowPolicy.DROP_OLDEST, batch -> {
                    entered.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).withMaxBatchValues(1));
        gateway.tagBus().publish(TagValue.good(TagPath.of("line/speed"), 0.0, Instant.now()));
        entered.await();
        for (int n = 1; n <= 500; n++) {
            gateway.tagBus().publish(TagValue.good(TagPath.of("line/speed"), (double) n, Instant.now()));
        }
        release.countDown();
        long dropped = 500 - 5;
        await().atMost(WAIT).until(() -> slow.stats().dropped() == dropped
                && body(admin.get("/api/v1/losses")).path("totalItems").asLong() == dropped);

        JsonNode losses = body(admin.get("/api/v1/losses"));
        JsonNode entry = losses.path("entries").get(0);
        assertThat(entry.path("component").asText()).isEqualTo("tag-bus");
        assertThat(entry.path("connection").asText()).isEqualTo("slow-consumer");
        assertThat(entry.path("reason").asText()).isEqualTo("tag_bus_overflow");
        assertThat(entry.path("operatorAction").asBoolean()).isFalse();
        assertThat(losses.path("totals")).singleElement().satisfies(day -> {
            assertThat(day.path("day").asText()).isEqualTo(LocalDate.now(ZoneOffset.UTC).toString());
            assertThat(day.path("items").asLong()).isEqualTo(dropped);
        });
        assertThat(losses.path("damage").path("records").asLong()).isZero();

        String metrics = admin.get("/metrics").body();
        assertThat(metrics).contains("qubiq_data_lost_items_total{component=\"tag-bus\",connection=\"slow-consumer\","
                + "reason=\"tag_bus_overflow\"} " + dropped + ".0");
        assertThat(metrics).contains("qubiq_data_lost_bytes_total{component=\"tag-bus\"");

        await().atMost(WAIT).until(() -> body(admin.get("/api/v1/alarms")).path("active").toString()
                .contains("DataLostAlarm"));
        JsonNode alarm = body(admin.get("/api/v1/alarms")).path("active").get(0);
        assertThat(alarm.path("key").asText()).isEqualTo("data-lost/slow-consumer/tag_bus_overflow");
        assertThat(alarm.path("message").asText()).contains("slow-consumer").contains("tag_bus_overflow")
                .contains(String.valueOf(dropped));
    }

    @Test
    void anOperatorsDropIsJournaledWithTheUserAndRaisesNoAlarm() throws Exception {
        ConsoleClient admin = start();
        gateway.events().lost(DataLoss.of(Instant.now(), "quarantine", "db", LossReason.OPERATOR_DROP, 3, 120,
                "dropped from the quarantine: ids [4, 5, 6]").by("erin"));
        gateway.losses().flush();

        JsonNode entry = body(admin.get("/api/v1/losses?reason=operator_drop")).path("entries").get(0);
        assertThat(entry.path("who").asText()).isEqualTo("erin");
        assertThat(entry.path("operatorAction").asBoolean()).isTrue();
        assertThat(entry.path("items").asLong()).isEqualTo(3);
        assertThat(entry.path("bytes").asLong()).isEqualTo(120);
        Thread.sleep(1500); // past the recorder's next tick, when an alarm would be raised
        assertThat(body(admin.get("/api/v1/alarms")).toString()).doesNotContain("DataLostAlarm");
    }

    @Test
    void theLedgerSurvivesARestartAndFiltersNarrowTheAnswer() throws Exception {
        start();
        Instant night = Instant.parse("2026-11-30T02:15:00Z");
        gateway.events().lost(DataLoss.of(night, "channel", "db", LossReason.DROP_OLDEST, 7, 700, "at the limit")
                .withSequences(10, 16));
        gateway.events().lost(DataLoss.of(night.plusSeconds(86_400), "channel", "mqtt", LossReason.REFUSED, 2, 20,
                "refused at the limit"));
        stop();

        ConsoleClient admin = start();
        JsonNode all = body(admin.get("/api/v1/losses"));
        assertThat(all.path("totals")).extracting(day -> day.path("day").asText())
                .containsExactly("2026-12-01", "2026-11-30");
        JsonNode db = body(admin.get("/api/v1/losses?connection=db"));
        assertThat(db.path("entries")).singleElement().satisfies(entry -> {
            assertThat(entry.path("reason").asText()).isEqualTo("drop_oldest");
            assertThat(entry.path("firstSequence").asLong()).isEqualTo(10);
            assertThat(entry.path("lastSequence").asLong()).isEqualTo(16);
        });
        JsonNode lastNight = body(admin.get("/api/v1/losses?from=2026-11-30T00:00:00Z&to=2026-11-30T06:00:00Z"));
        assertThat(lastNight.path("totalItems").asLong()).isEqualTo(7);
        assertThat(body(admin.get("/api/v1/losses?reason=refused")).path("totalItems").asLong()).isEqualTo(2);
    }

    @Test
    void badParametersAreRefusedNamingTheParameter() throws Exception {
        ConsoleClient admin = start();
        assertBadRequest(admin.get("/api/v1/losses?reason=gremlins"), "reason");
        assertBadRequest(admin.get("/api/v1/losses?from=yesterday"), "from");
        assertBadRequest(admin.get("/api/v1/losses?to=2026-13-01"), "to");
        assertBadRequest(admin.get("/api/v1/losses?limit=0"), "limit");
        assertBadRequest(admin.get("/api/v1/losses?limit=many"), "limit");
        assertBadRequest(admin.get("/api/v1/losses?from=2026-12-01T00:00:00Z&to=2026-11-30T00:00:00Z"), "to");
    }

    @Test
    void nothingLostIsAnEmptyAnswerAndReadingNeedsViewConnections() throws Exception {
        ConsoleClient admin = start();
        JsonNode none = body(admin.get("/api/v1/losses"));
        assertThat(none.path("entries")).isEmpty();
        assertThat(none.path("totals")).isEmpty();
        assertThat(none.path("totalItems").asLong()).isZero();

        String base = "http://127.0.0.1:" + gateway.console().port();
        assertThat(ConsoleClient.anonymous(base).get("/api/v1/losses").statusCode()).isEqualTo(401);
        HttpResponse<String> created = admin.post("/api/v1/users",
                "{\"name\":\"vic\",\"password\":\"amber-lantern-123\",\"roles\":[\"viewer\"]}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        ConsoleClient viewer = ConsoleClient.signedIn(base, "vic", "amber-lantern-123");
        assertThat(viewer.get("/api/v1/losses").statusCode()).isEqualTo(200);
        JsonNode described = body(admin.get("/api/v1/openapi.json")).path("paths").path("/api/v1/losses").path("get");
        assertThat(described.path("x-qubiq-permission").asText()).isEqualTo("view_connections");
    }

    private void assertBadRequest(HttpResponse<String> answer, String parameter) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        assertThat(answer.body()).contains(parameter);
    }
}
