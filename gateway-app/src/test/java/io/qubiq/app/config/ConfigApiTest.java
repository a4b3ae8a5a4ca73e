package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.config.ConfigException;
import io.qubiq.config.ConfigLoader;
import io.qubiq.config.ConfigProblem;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.http.JsonSchemaChecker;
import io.qubiq.testkit.postgres.PostgresServer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The configuration over the API (issue 22, read and validate) on a whole gateway started from a file, with
 * a real PostgreSQL behind its outbound connection: the running configuration with every default and no
 * secret (the administrator's password is in the file in clear, the database's comes from the
 * environment), a schema that the demo configuration conforms to, and dry runs that answer every problem
 * with the start-up texts, the diff and what would restart, while nothing changes.
 */
class ConfigApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path REPO = Path.of(System.getProperty("qubiq.repo", ".."));
    private static final String DB_PASSWORD = "db-password-from-the-environment";
    private static final Map<String, String> ENV = Map.of("DB_PASSWORD", DB_PASSWORD);
    private static final String VALIDATE = "/api/v1/config/validate";
    private static final String YAML_TYPE = "application/yaml";

    @TempDir
    static Path dir;
    static PostgresServer postgres;
    static DataDirectory data;
    static Gateway gateway;
    static Path file;
    static String text;
    static ConsoleClient admin;
    static ConsoleClient engineer;
    static ConsoleClient viewer;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresServer.start(dir.resolve("postgres"));
        postgres.execute("CREATE TABLE counts (id bigserial PRIMARY KEY, count bigint)");
        text = TestOperators.AUTH_YAML + """
                gateway: {name: config-api}
                http:
                  port: 0
                logging:
                  file_enabled: false
                outbound:
                  db:
                    sql: {jdbc_url: "%s", username: postgres, password: "${DB_PASSWORD}"}
                pipelines:
                  counts:
                    trigger: {tags: ["line/count"]}
                    outputs:
                      - connection: db
                        sql:
                          statement: "INSERT INTO counts (count) VALUES (:count)"
                          parameters: {count: "value"}
                """.formatted(postgres.jdbcUrl());
        file = Files.writeString(dir.resolve("gateway.yaml"), text);
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(ConfigSource.loadFile(file, ENV, data.root()), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        admin = TestOperators.admin(gateway);
        String base = "http://127.0.0.1:" + gateway.console().port();
        createUser("erin", "engineer");
        createUser("victor", "viewer");
        engineer = ConsoleClient.signedIn(base, "erin", "correct-horse-battery");
        viewer = ConsoleClient.signedIn(base, "victor", "correct-horse-battery");
    }

    private static void createUser(String name, String role) {
        HttpResponse<String> answer = admin.post("/api/v1/users", """
                {"name": "%s", "password": "correct-horse-battery", "roles": ["%s"]}""".formatted(name, role));
        assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        }
        if (data != null) {
            data.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private static JsonNode ok(HttpResponse<String> answer) throws Exception {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).as("no secret in any answer")
                .doesNotContain(TestOperators.ADMIN_PASSWORD, DB_PASSWORD);
        return JSON.readTree(answer.body());
    }

    private static JsonNode validate(String yaml) throws Exception {
        return ok(engineer.send("POST", VALIDATE, yaml, YAML_TYPE));
    }

    @Test
    void readingNeedsViewConnectionsAndValidatingNeedsManageConfiguration() {
        ConsoleClient anonymous = ConsoleClient.anonymous("http://127.0.0.1:" + gateway.console().port());
        assertThat(anonymous.get("/api/v1/config").statusCode()).isEqualTo(401);
        assertThat(anonymous.get("/api/v1/config/schema").statusCode()).isEqualTo(401);
        assertThat(anonymous.send("POST", VALIDATE, text, YAML_TYPE).statusCode()).isEqualTo(401);
        assertThat(viewer.get("/api/v1/config").statusCode()).isEqualTo(200);
        assertThat(viewer.get("/api/v1/config/schema").statusCode()).isEqualTo(200);
        assertThat(viewer.send("POST", VALIDATE, text, YAML_TYPE).statusCode()).isEqualTo(403);
        assertThat(engineer.send("POST", VALIDATE, text, YAML_TYPE).statusCode()).isEqualTo(200);
        assertThat(admin.send("POST", VALIDATE, text, YAML_TYPE).statusCode()).isEqualTo(200);
    }

    @Test
    void theRunningConfigurationHasEveryDefaultItsRevisionAndNoSecret() throws Exception {
        JsonNode running = ok(viewer.get("/api/v1/config"));

        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        assertThat(running.path("revision").asText()).isEqualTo("sha256:" + sha);
        assertThat(running.path("source").asText()).isEqualTo(file.toString());
        JsonNode config = running.path("config");
        assertThat(config.path("auth").path("admin_password").asText()).isEqualTo("***");
        assertThat(config.path("outbound").path("db").path("sql").path("password").asText()).isEqualTo("***");
        assertThat(config.path("outbound").path("db").path("store_and_forward").path("batch_max_items").asInt())
                .as("a default filled in").isEqualTo(500);
        assertThat(config.path("http").path("bind_address").isTextual()).isTrue();
        assertThat(running.path("fromEnvironment")).singleElement().satisfies(key -> {
            assertThat(key.path("key").asText()).isEqualTo("outbound.db.sql.password");
            assertThat(key.path("variables").toString()).isEqualTo("[\"DB_PASSWORD\"]");
            assertThat(key.path("readOnly").asBoolean()).isTrue();
        });
        JsonNode schema = ok(viewer.get("/api/v1/config/schema"));
        assertThat(JsonSchemaChecker.standalone().violations(config, schema)).as("the running configuration conforms to"
                + " the schema").isEmpty();
    }

    @Test
    void theSchemaIsGeneratedFromTheDeclarationsAndTheDemoConfigurationConformsToIt() throws Exception {
        JsonNode schema = ok(viewer.get("/api/v1/config/schema"));
        assertThat(schema.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        JsonNode outbound = schema.path("properties").path("outbound").path("additionalProperties");
        assertThat(outbound.path("x-selected-by").asText()).isEqualTo("section");
        List<String> sections = new ArrayList<>();
        outbound.path("oneOf").forEach(variant -> sections.add(variant.path("required").get(0).asText()));
        assertThat(sections).contains("sql", "mqtt", "questdb", "mongodb");
        JsonNode linger = schema.at("/properties/historian/properties/linger_ms");
        assertThat(linger.path("type").asText()).isEqualTo("integer");
        assertThat(linger.path("x-unit").asText()).isEqualTo("milliseconds");
        assertThat(linger.has("default") && linger.has("description")).isTrue();

        Object demo = new Yaml().load(Files.readString(REPO.resolve("config/demo.yaml")));
        JsonNode demoJson = JSON.valueToTree(demo);
        assertThat(JsonSchemaChecker.standalone().violations(demoJson, schema)).isEmpty();
        JsonNode broken = JSON.readTree("{\"http\": {\"port\": 70000, \"colour\": \"red\"}}");
        assertThat(JsonSchemaChecker.standalone().violations(broken, schema))
                .anyMatch(v -> v.startsWith("$.http.port: 70000 is above the maximum 65535"))
                .anyMatch(v -> v.startsWith("$.http.colour: property not in the schema"));
    }

    @Test
    void validatingTheRunningFileAnswersValidWithNoDiffAsYamlAndAsJson() throws Exception {
        JsonNode yaml = validate(Files.readString(file));
        assertThat(yaml.path("valid").asBoolean()).as(yaml.toString()).isTrue();
        assertThat(yaml.path("problems")).isEmpty();
        assertThat(yaml.path("diff")).isEmpty();
        assertThat(yaml.path("restarts")).isEmpty();

        String json = JSON.writeValueAsString(new Yaml().load(Files.readString(file)));
        JsonNode asJson = ok(engineer.post(VALIDATE, json));
        assertThat(asJson.path("valid").asBoolean()).as(asJson.toString()).isTrue();
        assertThat(asJson.path("diff")).isEmpty();
    }

    @Test
    void threeMistakesAnswerAllThreeKeyPathsWithTheStartUpTextsAndChangeNothing() throws Exception {
        String before = admin.get("/api/v1/config").body();
        String wrong = text.replace("port: 0", "port: 70000")
                .replace("gateway: {name: config-api}", "gateway: {nmae: config-api}")
                .replace("username: postgres,", "username: postgres, batch_size: 10,");

        JsonNode answer = validate(wrong);

        assertThat(answer.path("valid").asBoolean()).isFalse();
        List<String> keys = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        answer.path("problems").forEach(p -> {
            keys.add(p.path("key").asText());
            messages.add(p.path("message").asText());
            assertThat(p.path("line").asInt()).isPositive();
        });
        assertThat(keys).containsExactlyInAnyOrder("gateway.nmae", "http.port", "outbound.db.sql.batch_size");
        ConfigException atStartUp = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parse("gateway.yaml", wrong, GatewayConfig.class, ENV));
        assertThat(messages).containsExactlyElementsOf(atStartUp.problems().stream().map(ConfigProblem::message).toList());
        assertThat(answer.path("diff")).isEmpty();
        assertThat(admin.get("/api/v1/config").body()).as("nothing changed").isEqualTo(before);
    }

    @Test
    void aChangedBatchSizeRestartsThatOneOutboundConnection() throws Exception {
        String bigger = text.replace("    sql: {jdbc_url", "    store_and_forward: {batch_max_items: 100}\n    sql: {jdbc_url");

        JsonNode answer = validate(bigger);

        assertThat(answer.path("valid").asBoolean()).as(answer.toString()).isTrue();
        assertThat(answer.path("diff")).singleElement().satisfies(change -> {
            assertThat(change.path("key").asText()).isEqualTo("outbound.db.store_and_forward.batch_max_items");
            assertThat(change.path("from").asInt()).isEqualTo(500);
            assertThat(change.path("to").asInt()).isEqualTo(100);
        });
        assertThat(answer.path("restarts").toString()).isEqualTo("[\"outbound:db\"]");
    }

    @Test
    void aChangedSecretIsListedWithoutItsValues() throws Exception {
        String other = text.replace(TestOperators.ADMIN_PASSWORD, "another-password-in-clear")
                .replace("trigger: {tags: [\"line/count\"]}", "trigger: {tags: [\"line/other\"]}");

        HttpResponse<String> raw = engineer.send("POST", VALIDATE, other, YAML_TYPE);
        JsonNode answer = ok(raw);

        assertThat(raw.body()).doesNotContain("another-password-in-clear");
        assertThat(answer.path("diff").toString()).contains(
                "{\"key\":\"auth.admin_password\",\"from\":\"***\",\"to\":\"***\"}",
                "{\"key\":\"pipelines.counts.trigger.tags[0]\",\"from\":\"line/count\",\"to\":\"line/other\"}");
        assertThat(answer.path("restarts").toString()).isEqualTo("[\"gateway\",\"pipeline:counts\"]");
    }

    @Test
    void aBodyThatIsNotYamlIsRefusedWithTheReason() {
        HttpResponse<String> answer = engineer.send("POST", VALIDATE, "gateway: {name: [unclosed\n", YAML_TYPE);

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).contains("the body is not YAML or JSON", "YAML syntax error");
    }
}
