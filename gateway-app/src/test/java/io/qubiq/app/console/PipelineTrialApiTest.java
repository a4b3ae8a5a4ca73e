package io.qubiq.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v1/pipelines/check-expression} and {@code POST /api/v1/pipelines/try} against a whole
 * gateway with a real OPC UA device and a real PostgreSQL: expressions are judged with the variables their
 * pipeline offers; a try maps the current tag values for each output and shows the items, while the
 * destination table stays empty and the channel's counters stay where they were; a pipeline that would
 * not load answers 422 with key paths; bad bodies 400; a viewer 403.
 */
class PipelineTrialApiTest {

    private static final String CHECK = "/api/v1/pipelines/check-expression";
    private static final String TRY = "/api/v1/pipelines/try";

    @TempDir
    static Path dir;

    static PipelineTestGateway gw;

    @BeforeAll
    static void start() throws Exception {
        gw = PipelineTestGateway.start(dir);
        await().atMost(Duration.ofSeconds(30)).until(() -> gw.postgres.queryLong("SELECT count(*) FROM readings") > 0);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gw != null) {
            gw.close();
        }
    }

    private static JsonNode ok(HttpResponse<String> answer) {
        return ConsoleTestGateway.json(answer, "the answer");
    }

    @Test
    void anExpressionIsJudgedWithTheVariablesOfItsTriggerAndEarlierTransforms() {
        assertThat(ok(gw.engineer.post(CHECK, """
                {"expression": "value * 2", "trigger": {"tags": ["plant/**"]}}""")).path("ok").asBoolean()).isTrue();
        JsonNode unknown = ok(gw.engineer.post(CHECK, """
                {"expression": "celsius + 1", "trigger": {"tags": ["plant/**"]}}"""));
        assertThat(unknown.path("ok").asBoolean()).isFalse();
        assertThat(unknown.path("error").asText()).contains("celsius");
        assertThat(ok(gw.engineer.post(CHECK, """
                {"expression": "celsius + 1", "trigger": {"tags": ["plant/**"]}, "transforms": ["celsius"]}"""))
                .path("ok").asBoolean()).isTrue();
        assertThat(ok(gw.engineer.post(CHECK, """
                {"expression": "topic", "trigger": {"interval_ms": 1000}}""")).path("ok").asBoolean()).isFalse();
        JsonNode broken = ok(gw.engineer.post(CHECK, """
                {"expression": "value +", "trigger": {"tags": ["plant/**"]}}"""));
        assertThat(broken.path("ok").asBoolean()).isFalse();
        assertThat(broken.path("error").asText()).isNotBlank();
        assertThat(ok(gw.engineer.post(CHECK, """
                {"expression": "plant/{{path}}", "trigger": {"tags": ["plant/**"]}, "template": true}"""))
                .path("ok").asBoolean()).isTrue();
    }

    @Test
    void aCheckWithoutATriggerIsABadRequestAndAViewerMayNotCheck() {
        HttpResponse<String> noTrigger = gw.engineer.post(CHECK, """
                {"expression": "value"}""");
        assertThat(noTrigger.statusCode()).isEqualTo(400);
        assertThat(noTrigger.body()).contains("trigger");
        assertThat(gw.engineer.post(CHECK, """
                {"expression": "value", "trigger": {}}""").statusCode()).isEqualTo(400);
        assertThat(gw.viewer.post(CHECK, """
                {"expression": "value", "trigger": {"tags": ["plant/**"]}}""").statusCode()).isEqualTo(403);
        assertThat(gw.viewer.post(TRY, """
                {"pipeline": {"trigger": {"interval_ms": 1000}, "outputs": []}}""").statusCode()).isEqualTo(403);
    }

    @Test
    void aTryShowsWhatEachOutputWouldWriteAndWritesNothing() {
        // the configured pipeline stops writing, so the channel's counters hold still
        assertThat(gw.engineer.post("/api/v1/pipelines/pressures/disable", "").statusCode()).isEqualTo(200);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> gw.channel().path("bufferedItems").asLong() == 0);
            JsonNode before = gw.channel();
            JsonNode tried = ok(gw.engineer.post(TRY, """
                    {"id": "doubled", "pipeline": {
                      "trigger": {"tags": ["plant/**"]},
                      "filter": "path != 'plant/level'",
                      "transforms": [{"name": "twice", "expression": "value * 2"}],
                      "outputs": [{"connection": "db", "sql": {
                        "statement": "INSERT INTO tried (value, note) VALUES (:v, :note)",
                        "parameters": {"v": "twice", "note": "'from ' + path"}}}]}}"""));
            List<JsonNode> events = new ArrayList<>();
            tried.path("events").forEach(events::add);
            assertThat(events).hasSize(2);
            JsonNode level = events.stream().filter(e -> e.path("variables").path("path").asText().equals("plant/level"))
                    .findFirst().orElseThrow();
            assertThat(level.path("outcome").asText()).isEqualTo("filtered");
            JsonNode pressure = events.stream()
                    .filter(e -> e.path("variables").path("path").asText().equals("plant/pressure")).findFirst().orElseThrow();
            assertThat(pressure.path("outcome").asText()).isEqualTo("emitted");
            assertThat(pressure.path("transforms").path("twice").asDouble()).as("the transform's value")
                    .isEqualTo(pressure.path("variables").path("value").asDouble() * 2);
            JsonNode item = pressure.path("outputs").get(0);
            assertThat(item.path("connection").asText()).isEqualTo("db");
            assertThat(item.path("kind").asText()).isEqualTo("sql");
            assertThat(item.path("item").asText()).contains("INSERT INTO tried").contains("from plant/pressure");

            JsonNode after = gw.channel();
            for (String counter : List.of("itemsIn", "itemsDelivered", "bufferedItems", "deliveryAttempts")) {
                assertThat(after.path(counter).asLong()).as(counter).isEqualTo(before.path(counter).asLong());
            }
            assertThat(gw.postgres.queryLong("SELECT count(*) FROM tried")).isZero();
        } finally {
            gw.engineer.post("/api/v1/pipelines/pressures/enable", "");
        }
    }

    @Test
    void anEventWhoseExpressionFailsShowsTheErrorAndAnIntervalTriggerRunsOnce() {
        JsonNode tried = ok(gw.engineer.post(TRY, """
                {"id": "ticks", "pipeline": {
                  "trigger": {"interval_ms": 1000},
                  "transforms": [{"name": "broken", "expression": "1 / 0"}],
                  "outputs": [{"connection": "db", "sql": {
                    "statement": "INSERT INTO tried (value) VALUES (:v)", "parameters": {"v": "broken"}}}]}}"""));
        assertThat(tried.path("events")).hasSize(1);
        JsonNode event = tried.path("events").get(0);
        assertThat(event.path("variables").size()).isZero();
        assertThat(event.path("outcome").asText()).isIn("failed", "emitted");
        if (event.path("outcome").asText().equals("failed")) {
            assertThat(event.path("error").asText()).isNotBlank();
        }
    }

    @Test
    void anMqttTriggersTryRunsTheGivenMessageWithItsPayloadParsed() {
        JsonNode tried = ok(gw.engineer.post(TRY, """
                {"id": "messages", "pipeline": {
                  "trigger": {"mqtt": {"connection": "plc1", "topic": "plant/#"}},
                  "transforms": [{"name": "doubled", "expression": "json.v * 2"}],
                  "outputs": [{"connection": "db", "sql": {
                    "statement": "INSERT INTO tried (value, note) VALUES (:v, :t)",
                    "parameters": {"v": "doubled", "t": "topic"}}}]},
                 "message": {"topic": "plant/line1", "payload": "{\\"v\\": 21}"}}"""));
        assertThat(tried.path("events")).hasSize(1);
        JsonNode event = tried.path("events").get(0);
        assertThat(event.path("variables").path("topic").asText()).isEqualTo("plant/line1");
        assertThat(event.path("outcome").asText()).isEqualTo("emitted");
        assertThat(event.path("outputs").get(0).path("item").asText()).contains("v=42").contains("t='plant/line1'");
        assertThat(gw.postgres.queryLong("SELECT count(*) FROM tried")).isZero();
    }

    @Test
    void aPipelineThatWouldNotLoadIsRefusedWithItsKeyPaths() {
        HttpResponse<String> unknownKey = gw.engineer.post(TRY, """
                {"id": "bad", "pipeline": {"trigger": {"tags": ["plant/**"]}, "filtr": "value > 1",
                  "outputs": [{"connection": "db", "sql": {"statement": "INSERT INTO tried (value) VALUES (:v)",
                    "parameters": {"v": "nope + 1"}}}]}}""");
        assertThat(unknownKey.statusCode()).isEqualTo(422);
        assertThat(unknownKey.body()).contains("pipelines.bad.filtr");
        HttpResponse<String> badExpression = gw.engineer.post(TRY, """
                {"id": "bad", "pipeline": {"trigger": {"tags": ["plant/**"]},
                  "outputs": [{"connection": "db", "sql": {"statement": "INSERT INTO tried (value) VALUES (:v)",
                    "parameters": {"v": "nope + 1"}}}]}}""");
        assertThat(badExpression.statusCode()).isEqualTo(422);
        assertThat(badExpression.body()).contains("pipelines.bad.outputs[0].sql.parameters.v").contains("nope");
        HttpResponse<String> noConnection = gw.engineer.post(TRY, """
                {"id": "bad", "pipeline": {"trigger": {"tags": ["plant/**"]},
                  "outputs": [{"connection": "elsewhere", "sql": {"statement": "INSERT INTO tried (value) VALUES (:v)",
                    "parameters": {"v": "value"}}}]}}""");
        assertThat(noConnection.statusCode()).isEqualTo(422);
        assertThat(noConnection.body()).contains("pipelines.bad.outputs[0].connection").contains("elsewhere");
        HttpResponse<String> mqttWithoutMessage = gw.engineer.post(TRY, """
                {"id": "bad", "pipeline": {"trigger": {"mqtt": {"connection": "plc1", "topic": "a/#"}},
                  "outputs": [{"connection": "db", "sql": {"statement": "INSERT INTO tried (value) VALUES (:v)",
                    "parameters": {"v": "payload"}}}]}}""");
        assertThat(mqttWithoutMessage.statusCode()).isEqualTo(400);
        assertThat(gw.engineer.post(TRY, "[1, 2]").statusCode()).isEqualTo(400);
        assertThat(gw.postgres.queryLong("SELECT count(*) FROM tried")).isZero();
    }
}
