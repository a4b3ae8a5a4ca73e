package io.qubiq.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.testkit.http.ConsoleClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code POST /api/v1/config/validate} reads its body before the application sees it: YAML under the
 * YAML media types and text/plain, JSON checked to be a JSON object, and a clear 400 for an empty body,
 * malformed JSON or another media type. The gateway-app's ConfigApiTest covers the answers themselves.
 */
class ConfigRoutesTest {

    private static final String VALIDATE = "/api/v1/config/validate";

    @TempDir
    static Path dir;
    static ConsoleFixture console;
    static ConsoleClient engineer;

    @BeforeAll
    static void start() throws Exception {
        console = ConsoleFixture.start(dir);
        engineer = console.as("engineer");
    }

    @AfterAll
    static void stop() {
        console.close();
    }

    @Test
    void yamlUnderAnyYamlMediaTypeOrPlainTextReachesTheValidator() {
        for (String type : new String[] {"application/yaml", "text/yaml", "text/plain; charset=utf-8"}) {
            HttpResponse<String> answer = engineer.send("POST", VALIDATE, "gateway:\n  name: x\n", type);
            assertThat(answer.statusCode()).as(type + ": " + answer.body()).isEqualTo(200);
            assertThat(answer.body()).contains("\"valid\":true", "\"problems\":[]", "\"diff\":[]", "\"restarts\":[]");
        }
        assertThat(console.gateway.actions).anyMatch(a -> a.what().equals("validate")
                && a.target().equals(ConfigRoutes.CANDIDATE));
    }

    @Test
    void aJsonObjectReachesTheValidator() {
        assertThat(engineer.post(VALIDATE, "{\"gateway\": {\"name\": \"x\"}}").statusCode()).isEqualTo(200);
    }

    @Test
    void anEmptyBodyMalformedJsonOrAnotherMediaTypeIsRefusedWithWhatToSend() {
        HttpResponse<String> empty = engineer.send("POST", VALIDATE, " ", "application/yaml");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.body()).contains("the body is empty", "application/yaml", "application/json");

        HttpResponse<String> broken = engineer.post(VALIDATE, "{\"gateway\": ");
        assertThat(broken.statusCode()).isEqualTo(400);
        assertThat(broken.body()).contains("the body is not JSON");

        HttpResponse<String> list = engineer.post(VALIDATE, "[1, 2]");
        assertThat(list.statusCode()).isEqualTo(400);
        assertThat(list.body()).contains("must be a JSON object");

        HttpResponse<String> xml = engineer.send("POST", VALIDATE, "<gateway/>", "application/xml");
        assertThat(xml.statusCode()).isEqualTo(400);
        assertThat(xml.body()).contains("application/yaml", "not application/xml");
    }

    @Test
    void readingTheConfigurationNeedsViewConnectionsAndValidatingNeedsManageConfiguration() {
        assertThat(console.as("viewer").get("/api/v1/config").statusCode()).isEqualTo(200);
        assertThat(console.as("viewer").get("/api/v1/config/schema").statusCode()).isEqualTo(200);
        assertThat(console.as("viewer").post(VALIDATE, "{}").statusCode()).isEqualTo(403);
        assertThat(console.as("operator").post(VALIDATE, "{}").statusCode()).isEqualTo(403);
        assertThat(console.anonymous().get("/api/v1/config").statusCode()).isEqualTo(401);
        assertThat(console.as("admin").post(VALIDATE, "{}").statusCode()).isEqualTo(200);
    }
}
