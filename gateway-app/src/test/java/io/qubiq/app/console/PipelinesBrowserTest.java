package io.qubiq.app.console;

import static io.qubiq.app.console.ConsoleTestGateway.ENGINEER;
import static io.qubiq.app.console.ConsoleTestGateway.PASSWORD;
import static io.qubiq.app.console.ConsoleTestGateway.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import io.qubiq.testkit.opcua.TestVariable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22's pipeline editor on the Connections page, driven in Debian's Chromium against a whole gateway
 * started from a file, with a real OPC UA device and a real PostgreSQL: an engineer fills in a new
 * pipeline, sees a mistyped expression flagged as it is typed, tries it (the mapped SQL statement is shown
 * and the destination table stays empty), saves it (it runs at once and its rows arrive), edits it (a
 * filter the gateway refuses stands under the field with its key path; a good one is applied live) and
 * deletes it; a viewer sees no editing button. No error in the browser's console.
 */
class PipelinesBrowserTest {

    private static final String TRANSFORM = "[data-test=pe-transform]";

    @TempDir
    static Path dir;

    static PipelineTestGateway gw;
    static ConsoleBrowser browser;

    @BeforeAll
    static void start() throws Exception {
        ConsoleBrowser.requireChromium();
        gw = PipelineTestGateway.start(dir);
        browser = ConsoleBrowser.start(gw.base, dir.resolve("chromium-profile"));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (gw != null) {
                gw.close();
            }
        }
    }

    private static long tried() {
        return gw.postgres.queryLong("SELECT count(*) FROM tried");
    }

    private static JsonNode pipelineConfig(String id) {
        return ConsoleTestGateway.json(gw.admin.get("/api/v1/config"), "the configuration").path("config")
                .path("pipelines").path(id);
    }

    @Test
    void anEngineerCreatesTriesSavesEditsAndDeletesAPipelineAndAViewerOnlyLooks() {
        browser.signIn(ENGINEER, PASSWORD);
        browser.open("#/connections");
        browser.waitFor("[data-test=pipeline-row][data-id=pressures]");

        // a new pipeline: tag trigger, a transform, an output to the db connection's table "tried"
        browser.click("#pipeline-new");
        browser.waitFor("#pipeline-editor[open]");
        browser.type("#pe-id", "doubled");
        browser.type("#pe-trigger-tags", "plant/pressure");
        browser.click("#pe-add-transform");
        browser.type(TRANSFORM + " [data-test=pe-transform-name]", "twice");
        browser.type(TRANSFORM + " [data-test=pe-transform-expression]", "valu * 2");
        browser.waitForText(TRANSFORM + " [data-test=field-problem]", "valu");
        browser.screenshot("pipelines-expression-error");
        browser.type(TRANSFORM + " [data-test=pe-transform-expression]", "value * 2");
        browser.waitForAttribute(TRANSFORM + " [data-test=pe-transform-expression]", "aria-invalid", "false"::equals,
                "the corrected expression accepted");
        browser.type("#pe-outputs-0-sql-statement", "INSERT INTO tried (value) VALUES (:v)");
        browser.type("[data-test=pe-output] [data-test=pe-pair-name]", "v");
        browser.type("[data-test=pe-output] [data-test=pe-pair-expression]", "twice");

        // Try: what the output would write, and nothing written
        browser.click("#pe-try");
        browser.waitFor("[data-test=pe-event][data-outcome=emitted]");
        browser.waitForText("[data-test=pe-event-output]", "INSERT INTO tried (value) VALUES (:v)");
        browser.waitForText("[data-test=pe-event-output]", "v=");
        browser.waitForText("[data-test=pe-event-transforms]", "twice=");
        browser.driver().executeScript("document.getElementById('pe-tried').scrollIntoView({block: 'end'})");
        browser.screenshot("pipelines-try");
        assertThat(tried()).as("Try writes nothing").isZero();

        // Save: applied live, the pipeline runs and its rows arrive
        browser.click("#pe-save");
        browser.waitForAbsent("#pipeline-editor");
        browser.waitForText("#pipeline-message", "Applied live (pipeline:doubled)");
        browser.waitFor("[data-test=pipeline-row][data-id=doubled][data-enabled=true]");
        AtomicInteger next = new AtomicInteger(10);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            gw.device.setValue(TestVariable.PRESSURE, (double) next.getAndIncrement()); // a new value is an event
            return tried() > 0;
        });
        browser.screenshot("pipelines");

        // Edit: a filter the gateway refuses stands under its field; a good one is applied live
        browser.click("#pipeline-edit-doubled");
        browser.waitFor("#pipeline-editor[open]");
        browser.expectConsoleErrors(Pattern.compile(
                "/api/v1/config/pipelines.doubled - Failed to load resource: the server responded with a status of 422"));
        browser.type("#pe-filter", "nope > 1");
        browser.waitForText("[data-test=pe-field][data-key=filter] [data-test=field-problem]", "nope");
        browser.click("#pe-save");
        browser.waitForText("[data-test=pe-field][data-key=filter] [data-test=field-problem]", "pipelines.doubled.filter");
        browser.waitForText("#pipeline-editor [data-test=dialog-message]", "Not saved");
        assertThat(pipelineConfig("doubled").has("filter")).as("nothing saved").isFalse();
        browser.type("#pe-filter", "value >= 0");
        browser.click("#pe-save");
        browser.waitForAbsent("#pipeline-editor");
        browser.waitForText("#pipeline-message", "Applied live (pipeline:doubled)");
        assertThat(pipelineConfig("doubled").path("filter").asText()).isEqualTo("value >= 0");

        // a change made meanwhile: Save is refused (409), the lines changed since are shown, nothing saved
        browser.click("#pipeline-edit-doubled");
        browser.waitFor("#pipeline-editor[open]");
        browser.expectConsoleErrors(Pattern.compile(
                "/api/v1/config/pipelines.doubled - Failed to load resource: the server responded with a status of 409"));
        ConsoleTestGateway.json(gw.admin.put("/api/v1/config/pipelines.doubled.filter", """
                {"revision": "%s", "value": "value > 1", "comment": "meanwhile"}""".formatted(gw.revision())),
                "a change made meanwhile");
        browser.type("#pe-filter", "value > 2");
        browser.click("#pe-save");
        browser.waitForText("#pipeline-editor [data-test=dialog-message]", "Changed meanwhile");
        browser.waitForText("[data-test=pe-diff]", "value > 1");
        assertThat(pipelineConfig("doubled").path("filter").asText()).isEqualTo("value > 1");
        browser.click("#pipeline-editor [data-test=dialog-cancel]");
        browser.waitForAbsent("#pipeline-editor");

        // Delete, after a confirmation
        browser.click("#pipeline-edit-doubled");
        browser.waitFor("#pipeline-editor[open]");
        browser.click("#pe-delete");
        browser.click("#confirm-ok");
        browser.waitForAbsent("#pipeline-editor");
        browser.waitForText("#pipeline-message", "Pipeline doubled deleted.");
        browser.waitForAbsent("[data-test=pipeline-row][data-id=doubled]");
        assertThat(pipelineConfig("doubled").isMissingNode()).isTrue();
        browser.assertNoConsoleErrors();

        // a viewer sees the pipelines and no editing button
        browser.signOut();
        browser.signIn(VIEWER, PASSWORD);
        browser.open("#/connections");
        browser.waitFor("[data-test=pipeline-row][data-id=pressures]");
        assertThat(browser.count("#pipeline-new")).isZero();
        assertThat(browser.count("[data-test=pipeline-edit]")).isZero();
        browser.assertNoConsoleErrors();
    }
}
