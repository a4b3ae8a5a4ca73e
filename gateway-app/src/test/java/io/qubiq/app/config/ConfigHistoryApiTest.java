package io.qubiq.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.testkit.http.ConsoleClient;
import java.net.http.HttpResponse;
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
 * What the console's Configuration history page asks before it acts (issue 22), on a whole gateway started
 * from a file with a secret in clear (the administrator's password): a rollback is previewed as the file's
 * lines from now to the earlier text, and the preview changes nothing; an exported file, its secret masked,
 * validates as unchanged, as importing it would be, while a masked secret the file has no value for is a
 * problem naming its key.
 */
class ConfigHistoryApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BATCH = "/api/v1/config/outbound.db.store_and_forward.batch_max_items";
    private static final String TEXT = TestOperators.AUTH_YAML + """
            gateway: {name: config-history}
            http:
              port: 0
            logging:
              file_enabled: false
            outbound:
              # nothing listens there: the test changes configuration, not data
              db:
                sql: {jdbc_url: "jdbc:postgresql://127.0.0.1:1/plant", username: postgres}
                store_and_forward:
                  batch_max_items: 500
            """;

    @TempDir
    Path dir;
    Path file;
    DataDirectory data;
    Gateway gateway;
    ConsoleClient admin;
    ConsoleClient viewer;

    @BeforeEach
    void start() throws Exception {
        file = Files.writeString(dir.resolve("gateway.yaml"), TEXT);
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(ConfigSource.loadFile(file, Map.of(), data.root()), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        admin = TestOperators.admin(gateway);
        HttpResponse<String> created = admin.post("/api/v1/users",
                "{\"name\": \"victor\", \"password\": \"correct-horse-battery\", \"roles\": [\"viewer\"]}");
        assertThat(created.statusCode()).as(created.body()).isIn(200, 201);
        viewer = ConsoleClient.signedIn("http://127.0.0.1:" + gateway.console().port(), "victor",
                "correct-horse-battery");
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

    private static JsonNode body(HttpResponse<String> answer, int status) throws Exception {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        assertThat(answer.body()).as("no secret in any answer").doesNotContain(TestOperators.ADMIN_PASSWORD);
        return JSON.readTree(answer.body());
    }

    @Test
    void aRollbackIsPreviewedAsTheFilesLinesFromNowToThatRevisionAndThePreviewChangesNothing() throws Exception {
        long first = body(admin.get("/api/v1/config/revisions"), 200).get(0).path("number").asLong();
        String revision = body(admin.get("/api/v1/config"), 200).path("fileRevision").asText();
        JsonNode written = body(admin.put(BATCH, """
                {"revision": "%s", "value": 100, "comment": "smaller"}""".formatted(revision)), 200);
        String changed = Files.readString(file);

        JsonNode preview = body(admin.get("/api/v1/config/revisions/" + first + "/rollback"), 200);

        assertThat(preview.path("revision").path("number").asLong()).isEqualTo(first);
        assertThat(preview.path("fileRevision").asText()).isEqualTo(written.path("revision").asText());
        assertThat(preview.path("diff").asText()).as("from the file now to revision " + first)
                .contains("-      batch_max_items: 100", "+      batch_max_items: 500")
                .doesNotContain(TestOperators.ADMIN_PASSWORD);
        assertThat(Files.readString(file)).as("a preview writes nothing").isEqualTo(changed);
        assertThat(body(admin.get("/api/v1/config/revisions"), 200)).hasSize(2);

        long newest = body(admin.get("/api/v1/config/revisions"), 200).get(0).path("number").asLong();
        assertThat(body(admin.get("/api/v1/config/revisions/" + newest + "/rollback"), 200).path("diff").asText())
                .as("the file holds that text already").isEmpty();
        body(admin.get("/api/v1/config/revisions/999/rollback"), 404);
        assertThat(viewer.get("/api/v1/config/revisions/" + first + "/rollback").statusCode())
                .as("a preview of an action the viewer may not take").isEqualTo(403);
    }

    @Test
    void anExportedFileValidatesAsUnchangedAndAMaskedSecretWithNothingToKeepIsAProblem() throws Exception {
        String exported = body(admin.get("/api/v1/config/export"), 200).path("text").asText();
        assertThat(exported).contains("admin_password: \"***\"");

        JsonNode same = body(admin.send("POST", "/api/v1/config/validate", exported, "application/yaml"), 200);
        assertThat(same.path("valid").asBoolean()).isTrue();
        assertThat(same.path("diff")).as("the masked secret is the file's").isEmpty();
        assertThat(same.path("restarts")).isEmpty();

        String noValue = exported.replace("username: postgres}", "username: postgres, password: \"***\"}");
        JsonNode refused = body(admin.send("POST", "/api/v1/config/validate", noValue, "application/yaml"), 200);
        assertThat(refused.path("valid").asBoolean()).isFalse();
        assertThat(refused.path("problems")).singleElement().satisfies(problem -> {
            assertThat(problem.path("key").asText()).isEqualTo("outbound.db.sql.password");
            assertThat(problem.path("message").asText()).contains("masked");
        });
        assertThat(Files.readString(file)).isEqualTo(TEXT);
    }
}
