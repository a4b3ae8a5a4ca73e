package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.console.ConfigChanges;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.http.JsonSchemaChecker;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changing the configuration over the API (issue 22, the write side) on a whole gateway started from a
 * file with comments, a secret in clear (the administrator's password) and one from the environment (the
 * database's): a key written changes only its line and is recorded as a revision with its author and
 * comment; what would not start, a stale revision, a secret or an environment key changed is refused and
 * leaves the file byte for byte as it was; hand edits are reloaded only when valid; a rollback restores
 * an earlier text; who may change what. Changes wait for a restart (no live apply yet), and the running
 * configuration says so. No answer holds a secret.
 */
class ConfigWriteApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DB_PASSWORD = "db-password-from-the-environment";
    private static final Map<String, String> ENV = Map.of("DB_PASSWORD", DB_PASSWORD);
    private static final String BATCH = "/api/v1/config/outbound.db.store_and_forward.batch_max_items";
    private static final String TEXT = TestOperators.AUTH_YAML + """
              roles:
                editor: [view_connections, edit_connections]
            gateway: {name: config-write}
            http:
              port: 0
            logging:
              file_enabled: false
            outbound:
              # the plant database (nothing listens there: the test changes configuration, not data)
              db:
                sql: {jdbc_url: "jdbc:postgresql://127.0.0.1:1/plant", username: postgres, password: "${DB_PASSWORD}"}
                store_and_forward:
                  batch_max_items: 500   # the default, written out to be tuned
                  max_bytes: 100000000
            """;

    @TempDir
    Path dir;
    Path file;
    DataDirectory data;
    Gateway gateway;
    ConsoleClient admin;
    ConsoleClient engineer;
    ConsoleClient editor;
    ConsoleClient viewer;

    @BeforeEach
    void start() throws Exception {
        file = Files.writeString(dir.resolve("gateway.yaml"), TEXT);
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(ConfigSource.loadFile(file, ENV, data.root()), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        admin = TestOperators.admin(gateway);
        String base = "http://127.0.0.1:" + gateway.console().port();
        for (String[] user : new String[][] {{"erin", "engineer"}, {"ed", "editor"}, {"victor", "viewer"}}) {
            HttpResponse<String> answer = admin.post("/api/v1/users", """
                    {"name": "%s", "password": "correct-horse-battery", "roles": ["%s"]}""".formatted(user[0], user[1]));
            assertThat(answer.statusCode()).as(answer.body()).isIn(200, 201);
        }
        engineer = ConsoleClient.signedIn(base, "erin", "correct-horse-battery");
        editor = ConsoleClient.signedIn(base, "ed", "correct-horse-battery");
        viewer = ConsoleClient.signedIn(base, "victor", "correct-horse-battery");
    }

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.lifecycle().stopAll(Duration.ofSeconds(30));
        }
        if (data != null) {
            data.close();
        }
    }

    /** The answer's body, checked to hold no secret. */
    private static JsonNode body(HttpResponse<String> answer, int status) throws Exception {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        assertThat(answer.body()).as("no secret in any answer").doesNotContain(TestOperators.ADMIN_PASSWORD, DB_PASSWORD);
        return JSON.readTree(answer.body());
    }

    private String fileRevision() throws Exception {
        return body(viewer.get("/api/v1/config"), 200).path("fileRevision").asText();
    }

    private static String change(String revision, String value, String comment) {
        return """
                {"revision": "%s", "value": %s, "comment": "%s"}""".formatted(revision, value, comment);
    }

    @Test
    void aKeyWrittenChangesOnlyItsLineAndIsARevisionWithAuthorAndCommentAppliedLive() throws Exception {
        String before = fileRevision();

        JsonNode written = body(engineer.put(BATCH, change(before, "100", "smaller batches")), 200);

        assertThat(Files.readString(file)).isEqualTo(TEXT.replace("batch_max_items: 500 ", "batch_max_items: 100 "));
        assertThat(written.path("diff")).singleElement().satisfies(change -> {
            assertThat(change.path("key").asText()).isEqualTo("outbound.db.store_and_forward.batch_max_items");
            assertThat(change.path("from").asInt()).isEqualTo(500);
            assertThat(change.path("to").asInt()).isEqualTo(100);
        });
        assertThat(written.path("applied")).extracting(JsonNode::asText).as("the channel takes it live")
                .containsExactly("outbound:db");
        assertThat(written.path("needRestart")).isEmpty();
        assertThat(written.path("revision").asText()).isNotEqualTo(before);

        JsonNode running = body(viewer.get("/api/v1/config"), 200);
        assertThat(running.path("revision").asText()).as("what runs").isEqualTo(written.path("revision").asText());
        assertThat(running.path("fileRevision").asText()).isEqualTo(written.path("revision").asText());
        assertThat(running.path("pendingRestart")).isEmpty();
        assertThat(running.path("config").path("outbound").path("db").path("store_and_forward")
                .path("batch_max_items").asInt()).isEqualTo(100);

        JsonNode newest = body(viewer.get("/api/v1/config/revisions"), 200).get(0);
        assertThat(newest.path("revision").asText()).isEqualTo(written.path("revision").asText());
        assertThat(newest.path("author").asText()).isEqualTo("erin");
        assertThat(newest.path("comment").asText()).isEqualTo("smaller batches");
        assertThat(newest.path("source").asText()).isEqualTo("api");
        assertThat(newest.path("parent").asLong()).isEqualTo(newest.path("number").asLong() - 1);
        assertThat(newest.has("text")).isFalse();

        JsonNode detail = body(viewer.get("/api/v1/config/revisions/" + newest.path("number").asLong()), 200);
        assertThat(detail.path("diff").asText()).contains("-      batch_max_items: 500", "+      batch_max_items: 100");

        JsonNode audit = awaitAuditEntry();
        assertThat(audit.path("user").asText()).isEqualTo("erin");
        assertThat(audit.path("target").asText()).isEqualTo("config/outbound.db.store_and_forward.batch_max_items");
        assertThat(audit.toString()).contains("500 -> 100", written.path("revision").asText());
    }

    private JsonNode awaitAuditEntry() {
        return await().atMost(Duration.ofSeconds(10)).until(
                () -> body(admin.get("/api/v1/audit?action=CONFIG_CHANGE"), 200).path("entries"),
                entries -> entries.size() > 0).get(0);
    }

    @Test
    void aChangeOnAStaleRevisionIsRefusedWithTheCurrentRevisionAndTheMaskedDiff() throws Exception {
        String base = fileRevision();
        String now = body(engineer.put("/api/v1/config/auth.password_hash_iterations", change(base, "2", "")), 200)
                .path("revision").asText();
        byte[] bytes = Files.readAllBytes(file);

        JsonNode stale = body(admin.put(BATCH, change(base, "200", "")), 409);

        assertThat(stale.path("currentRevision").asText()).isEqualTo(now);
        assertThat(stale.path("diff").asText()).contains("-  password_hash_iterations: 1",
                "+  password_hash_iterations: 2", " admin_password: ***");
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    @Test
    void anInvalidValueIsRefusedWithItsKeyAndTheFileStaysByteForByte() throws Exception {
        byte[] bytes = Files.readAllBytes(file);

        JsonNode invalid = body(engineer.put(BATCH, change(fileRevision(), "-5", "")), 422);

        assertThat(invalid.path("problems")).anySatisfy(problem -> {
            assertThat(problem.path("key").asText()).isEqualTo("outbound.db.store_and_forward.batch_max_items");
            assertThat(problem.path("line").asInt()).isPositive();
        });
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
        assertThat(body(viewer.get("/api/v1/config/revisions"), 200)).hasSize(1);
    }

    @Test
    void aSecretEnteredGoesToTheSecretsStoreAndTheFileAndItsRevisionsHoldOnlyAReference() throws Exception {
        String secret = "a-new-password-9";

        JsonNode written = body(admin.put("/api/v1/config/auth.admin_password",
                change(fileRevision(), "\"" + secret + "\"", "rotate")), 200);

        assertThat(written.toString()).doesNotContain(secret);
        assertThat(Files.readString(file)).as("the file names the secret, nothing more")
                .contains("admin_password: \"${secret:auth.admin_password-1}\"").doesNotContain(secret);
        try (var revisions = Files.walk(data.root().resolve(ConfigWrites.REVISIONS_DIR))) {
            for (Path kept : revisions.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(kept)).as("revision file %s", kept).doesNotContain(secret);
            }
        }
        Path store = data.root().resolve("secrets/secrets.properties");
        assertThat(Files.readString(store)).contains(secret);
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(store)))
                .isEqualTo("rw-------");
        long number = body(viewer.get("/api/v1/config/revisions"), 200).get(0).path("number").asLong();
        assertThat(body(viewer.get("/api/v1/config/revisions/" + number), 200).path("diff").asText())
                .contains("-  admin_password: ***", "+  admin_password: \"${secret:auth.admin_password-1}\"");
        assertThat(ConfigSource.loadFile(file, ENV, data.root()).config().auth().adminPassword())
                .as("the file as the next start reads it").contains(secret);
    }

    @Test
    void aRollbackRestoresTheSecretTheEarlierRevisionNamed() throws Exception {
        body(admin.put("/api/v1/config/auth.admin_password", change(fileRevision(), "\"first-secret\"", "")), 200);
        long first = body(viewer.get("/api/v1/config/revisions"), 200).get(0).path("number").asLong();
        body(admin.put("/api/v1/config/auth.admin_password", change(fileRevision(), "\"second-secret\"", "")), 200);
        assertThat(Files.readString(file)).contains("${secret:auth.admin_password-2}");

        body(admin.post("/api/v1/config/revisions/" + first + "/rollback", "{}"), 200);

        assertThat(Files.readString(file)).contains("${secret:auth.admin_password-1}");
        assertThat(ConfigSource.loadFile(file, ENV, data.root()).config().auth().adminPassword())
                .contains("first-secret");
    }

    @Test
    void anImportedFileWithASecretInClearKeepsItInTheStore() throws Exception {
        String text = Files.readString(file).replace("username: postgres, password: \"${DB_PASSWORD}\"",
                "username: postgres, password: imported-secret");

        body(admin.post("/api/v1/config/import", """
                {"revision": "%s", "text": %s}""".formatted(fileRevision(), JSON.writeValueAsString(text))), 200);

        assertThat(Files.readString(file)).doesNotContain("imported-secret")
                .contains("password: \"${secret:outbound.db.sql.password-1}\"");
        assertThat(ConfigSource.loadFile(file, ENV, data.root()).config().outbound().get("db").toString())
                .isNotEmpty();
    }

    @Test
    void theMaskSentBackKeepsASecretAndAMaskWhereNoSecretIsKeptIsRefused() throws Exception {
        // the section sent back as read: the mask keeps the password, one other key changes
        JsonNode auth = body(admin.get("/api/v1/config"), 200).path("config").path("auth");
        ((com.fasterxml.jackson.databind.node.ObjectNode) auth).put("session_idle_timeout_ms",
                auth.path("session_idle_timeout_ms").asLong() + 1000);
        JsonNode written = body(admin.put("/api/v1/config/auth", change(fileRevision(), auth.toString(), "")), 200);
        assertThat(written.path("diff")).extracting(change -> change.path("key").asText())
                .containsExactly("auth.session_idle_timeout_ms");
        assertThat(Files.readString(file)).contains("admin_password: " + TestOperators.ADMIN_PASSWORD);
        byte[] bytes = Files.readAllBytes(file);

        JsonNode refused = body(engineer.put("/api/v1/config/outbound.lake", change(fileRevision(),
                "{\"mqtt\": {\"host\": \"127.0.0.1\", \"username\": \"u\", \"password\": \"***\"}}", "")), 422);

        assertThat(refused.path("problems").get(0).path("key").asText()).isEqualTo("outbound.lake.mqtt.password");
        assertThat(refused.path("error").asText()).contains("enter the secret itself");
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    @Test
    void aKeyFromTheEnvironmentIsRefusedNamingItsVariable() throws Exception {
        byte[] bytes = Files.readAllBytes(file);

        JsonNode refused = body(engineer.put("/api/v1/config/outbound.db.sql.password",
                change(fileRevision(), "\"typed-in\"", "")), 422);

        assertThat(refused.path("error").asText()).contains("${DB_PASSWORD}");
        assertThat(refused.path("problems").get(0).path("key").asText()).isEqualTo("outbound.db.sql.password");
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    /**
     * Would catch an outbound connection added that waits for a restart (or is not running when said applied),
     * and a change reported as running while the gateway still runs the old value.
     */
    @Test
    void anOutboundConnectionAddedRunsAtOnceAndWhatCannotChangeLiveIsPendingUntilARestartAndSaysSo() throws Exception {
        JsonNode added = body(engineer.put("/api/v1/config/outbound.spare", change(fileRevision(),
                "{\"sql\": {\"jdbc_url\": \"jdbc:postgresql://127.0.0.1:1/spare\", \"username\": \"postgres\"}}",
                "a second database")), 200);
        assertThat(added.path("applied")).extracting(JsonNode::asText).containsExactly("outbound:spare");
        assertThat(added.path("needRestart")).isEmpty();
        assertThat(viewer.get("/api/v1/store-forward/spare").statusCode()).as("its channel runs").isEqualTo(200);
        String before = fileRevision();

        JsonNode written = body(engineer.put("/api/v1/config/gateway.name", change(before, "\"line-2\"", "")), 200);

        assertThat(written.path("needRestart")).extracting(JsonNode::asText).containsExactly("gateway");
        assertThat(written.path("applied")).isEmpty();
        JsonNode running = body(viewer.get("/api/v1/config"), 200);
        assertThat(running.path("revision").asText()).as("what runs").isEqualTo(before);
        assertThat(running.path("fileRevision").asText()).isEqualTo(written.path("revision").asText());
        assertThat(running.path("pendingRestart")).extracting(JsonNode::asText).containsExactly("gateway");
    }

    /**
     * Would catch an export that is not the file, an import of the same file that writes a revision, an
     * invalid import that changes the file, and an import that is written but not applied.
     */
    @Test
    void anExportedFileImportedAgainChangesNothingAndAnEditedOneIsValidatedKeptAndApplied() throws Exception {
        JsonNode exported = body(admin.get("/api/v1/config/export"), 200);
        String admins = TestOperators.ADMIN_PASSWORD;
        assertThat(exported.path("text").asText()).as("the file, its clear-text secret masked")
                .isEqualTo(TEXT.replace("admin_password: " + admins, "admin_password: \"***\""));
        assertThat(exported.path("file").asText()).isEqualTo("gateway.yaml");
        String revision = exported.path("revision").asText();
        assertThat(revision).isEqualTo(fileRevision());
        assertThat(viewer.get("/api/v1/config/export").statusCode()).isEqualTo(403);

        JsonNode same = body(admin.post("/api/v1/config/import", JSON.writeValueAsString(java.util.Map.of(
                "revision", revision, "text", exported.path("text").asText(), "comment", "round trip"))), 200);
        assertThat(same.path("diff")).isEmpty();
        assertThat(body(viewer.get("/api/v1/config/revisions"), 200)).as("the masked secret kept: same file").hasSize(1);
        assertThat(Files.readString(file)).isEqualTo(TEXT);

        String broken = TEXT.replace("batch_max_items: 500", "batch_max_items: 0");
        JsonNode invalid = body(admin.post("/api/v1/config/import", JSON.writeValueAsString(java.util.Map.of(
                "revision", revision, "text", broken))), 422);
        assertThat(invalid.path("problems").get(0).path("key").asText())
                .isEqualTo("outbound.db.store_and_forward.batch_max_items");
        assertThat(Files.readString(file)).isEqualTo(TEXT);

        String edited = exported.path("text").asText().replace("batch_max_items: 500", "batch_max_items: 200");
        JsonNode imported = body(admin.post("/api/v1/config/import", JSON.writeValueAsString(java.util.Map.of(
                "revision", revision, "text", edited, "comment", "from line 3"))), 200);
        assertThat(imported.path("applied")).extracting(JsonNode::asText).containsExactly("outbound:db");
        assertThat(Files.readString(file)).isEqualTo(TEXT.replace("batch_max_items: 500", "batch_max_items: 200"));
        assertThat(body(viewer.get("/api/v1/config/revisions"), 200).get(0).path("source").asText()).isEqualTo("import");

        body(admin.post("/api/v1/config/import", JSON.writeValueAsString(java.util.Map.of(
                "revision", revision, "text", TEXT))), 409);
    }

    @Test
    void aBrokenHandEditIsNotReloadedAndAFixedOneIs() throws Exception {
        String running = fileRevision();
        Files.writeString(file, TEXT.replace("batch_max_items: 500", "batch_max_items: -1"));

        JsonNode invalid = body(admin.post("/api/v1/config/reload", null), 422);
        assertThat(invalid.path("problems").get(0).path("key").asText())
                .isEqualTo("outbound.db.store_and_forward.batch_max_items");
        assertThat(fileRevision()).as("nothing changes").isEqualTo(running);
        assertThat(body(viewer.get("/api/v1/config/revisions"), 200)).hasSize(1);

        Files.writeString(file, TEXT.replace("batch_max_items: 500", "batch_max_items: 50"));
        JsonNode reloaded = body(admin.post("/api/v1/config/reload", null), 200);
        assertThat(reloaded.path("applied")).extracting(JsonNode::asText).containsExactly("outbound:db");
        assertThat(fileRevision()).isEqualTo(reloaded.path("revision").asText());
        JsonNode newest = body(viewer.get("/api/v1/config/revisions"), 200).get(0);
        assertThat(newest.path("source").asText()).isEqualTo("file");
    }

    @Test
    void aRollbackWritesTheEarlierTextAsANewRevision() throws Exception {
        long first = body(viewer.get("/api/v1/config/revisions"), 200).get(0).path("number").asLong();
        body(engineer.put(BATCH, change(fileRevision(), "100", "")), 200);
        body(engineer.send("DELETE", "/api/v1/config/outbound.db.store_and_forward.max_bytes",
                "{\"revision\": \"" + fileRevision() + "\"}"), 200);
        assertThat(Files.readString(file)).doesNotContain("max_bytes");

        JsonNode rolledBack = body(admin.post("/api/v1/config/revisions/" + first + "/rollback",
                "{\"comment\": \"back to how it started\"}"), 200);

        assertThat(Files.readString(file)).isEqualTo(TEXT);
        JsonNode newest = body(viewer.get("/api/v1/config/revisions"), 200).get(0);
        assertThat(newest.path("revision").asText()).isEqualTo(rolledBack.path("revision").asText());
        assertThat(newest.path("source").asText()).isEqualTo("rollback");
        assertThat(newest.path("comment").asText()).contains("revision " + first, "back to how it started");
    }

    @Test
    void aKeyPathMayBeUrlEncodedWithQuotedKeys() throws Exception {
        body(engineer.put("/api/v1/config/outbound.%22db%22.store_and_forward.batch_max_items",
                change(fileRevision(), "100", "")), 200);

        assertThat(Files.readString(file)).contains("batch_max_items: 100 ");
        assertThat(engineer.put("/api/v1/config/outbound..db", change(fileRevision(), "1", "")).statusCode())
                .isEqualTo(400);
    }

    @Test
    void aConnectionThatHoldsASecretCanBeRemovedWhole() throws Exception {
        JsonNode removed = body(engineer.send("DELETE", "/api/v1/config/outbound.db",
                "{\"revision\": \"" + fileRevision() + "\", \"comment\": \"db retired\"}"), 200);

        assertThat(removed.path("applied")).as("stopped live").extracting(JsonNode::asText).containsExactly("outbound:db");
        assertThat(Files.readString(file)).doesNotContain("db:", "DB_PASSWORD").contains("gateway: {name: config-write}");
        assertThat(body(engineer.send("DELETE", "/api/v1/config/outbound.db",
                "{\"revision\": \"" + fileRevision() + "\"}"), 404).path("error").asText()).contains("outbound.db");
    }

    @Test
    void connectionsNeedEditConnectionsAndEverythingElseManageConfiguration() throws Exception {
        String revision = fileRevision();
        assertThat(viewer.put(BATCH, change(revision, "100", "")).statusCode()).isEqualTo(403);
        assertThat(viewer.post("/api/v1/config/reload", null).statusCode()).isEqualTo(403);
        assertThat(editor.put("/api/v1/config/gateway.name", change(revision, "\"renamed\"", "")).statusCode())
                .isEqualTo(403);
        assertThat(editor.post("/api/v1/config/reload", null).statusCode()).isEqualTo(403);
        assertThat(Files.readString(file)).isEqualTo(TEXT);

        String afterEditor = body(editor.put(BATCH, change(revision, "100", "")), 200).path("revision").asText();
        JsonNode renamed = body(engineer.put("/api/v1/config/gateway.name", change(afterEditor, "\"renamed\"", "")), 200);
        assertThat(renamed.path("needRestart")).extracting(JsonNode::asText).containsExactly("gateway");
    }

    @Test
    void everyAnswerConformsToTheOpenApiDescription() throws Exception {
        JsonSchemaChecker schemas = new JsonSchemaChecker(JSON.readTree(admin.get("/api/v1/openapi.json").body()));
        String base = fileRevision();
        String key = "/api/v1/config/{key}";
        conforms(schemas, admin, "PUT", BATCH, key, change(base, "100", ""), 200);
        conforms(schemas, admin, "PUT", BATCH, key, change(base, "100", ""), 409);
        conforms(schemas, admin, "PUT", BATCH, key, change(fileRevision(), "\"many\"", ""), 422);
        conforms(schemas, admin, "PUT", BATCH, key, "{\"value\": 1}", 400);
        conforms(schemas, editor, "PUT", "/api/v1/config/gateway.name", key, change(base, "\"x\"", ""), 403);
        conforms(schemas, admin, "DELETE", "/api/v1/config/outbound.db.sql.port", key,
                "{\"revision\": \"" + fileRevision() + "\"}", 404);
        conforms(schemas, admin, "POST", "/api/v1/config/reload", "/api/v1/config/reload", null, 200);
        conforms(schemas, admin, "GET", "/api/v1/config/revisions", "/api/v1/config/revisions", null, 200);
        conforms(schemas, admin, "GET", "/api/v1/config/revisions/2", "/api/v1/config/revisions/{id}", null, 200);
        conforms(schemas, admin, "GET", "/api/v1/config/revisions/99", "/api/v1/config/revisions/{id}", null, 404);
        conforms(schemas, admin, "POST", "/api/v1/config/revisions/1/rollback",
                "/api/v1/config/revisions/{id}/rollback", "{}", 200);
        conforms(schemas, admin, "GET", "/api/v1/config", "/api/v1/config", null, 200);
    }

    private static void conforms(JsonSchemaChecker schemas, ConsoleClient client, String method, String path,
                                 String template, String body, int status) throws Exception {
        JsonNode json = body(client.send(method, path, body), status);
        JsonNode schema = schemas.responseSchema(method, template, status);
        assertThat(schema.isMissingNode()).as("%s %s names status %d", method, template, status).isFalse();
        assertThat(schemas.violations(json, schema)).as("%s %s: %s", method, path, json).isEmpty();
    }

    @Test
    void theDemoRunsFromItsCopyInTheDataDirectoryWhichCanBeChanged() throws Exception {
        Path root = dir.resolve("demo-data");
        Files.createDirectories(root);
        LoadedConfig demo = ConfigSource.demoInDataDirectory(root, Map.of());
        Path copy = root.resolve(ConfigSource.DEMO_FILE);
        assertThat(demo.file()).contains(copy);
        assertThat(ConfigSource.isPackagedDemo(ConfigSource.loadDemo(Map.of()))).isTrue();
        assertThat(demo.config()).isEqualTo(ConfigSource.loadDemo(Map.of()).config());

        ConfigWrites writes = ConfigWrites.open(new ConfigState(demo), root, ConfigApplier.restartRequired(),
                EventPublisher.none(), Clock.systemUTC());
        ConfigChanges.Outcome outcome = writes.put("gateway.name", "changed-demo", demo.revision(), "",
                new ConfigChanges.Author("admin", "admin", "api", "127.0.0.1"));

        assertThat(outcome).isInstanceOf(ConfigChanges.Written.class);
        assertThat(Files.readString(copy, StandardCharsets.UTF_8)).contains("changed-demo");
        assertThat(ConfigSource.demoInDataDirectory(root, Map.of()).config().gateway().name())
                .as("the next start reads the changed copy").isEqualTo("changed-demo");
    }
}
