package io.qubiq.app.console;

import static io.qubiq.app.console.ConsoleTestGateway.ENGINEER;
import static io.qubiq.app.console.ConsoleTestGateway.PASSWORD;
import static io.qubiq.app.console.ConsoleTestGateway.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.postgres.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * Issue 22's Settings → Configuration page, driven in Debian's Chromium against a whole gateway started
 * from a configuration file (configuration writes need one) with one outbound connection to a real
 * PostgreSQL: an engineer sees a change made over the API as a
 * new revision with its diff, rolls it back with a comment after a confirmation that shows the lines, and
 * the value is back in the running configuration and the file; the exported file imported again changes
 * nothing; a broken file shows its problems with their key paths and changes nothing, and so do an import
 * overtaken by another change (409) and a broken hand edit reloaded (422); a change that waits for a
 * restart is named in a banner; a viewer sees the history and its diffs but no action. No error in
 * the browser's console.
 */
class ConfigHistoryBrowserTest {

    private static final String BATCH = "/api/v1/config/outbound.db.store_and_forward.batch_max_items";
    private static final String YAML = TestOperators.AUTH_YAML + """
            gateway: {name: plant-edge}
            http:
              port: 0
            logging:
              file_enabled: false
            outbound:
              # the plant database
              db:
                sql: {jdbc_url: "%s", username: postgres, connection_timeout_ms: 1000}
                store_and_forward:
                  batch_max_items: 500   # tuned for the plant's historian
                  max_bytes: 1048576
                  segment_bytes: 262144
            """;

    @TempDir
    static Path dir;

    static PostgresServer postgres;
    static String text;
    static Path file;
    static DataDirectory data;
    static Gateway gateway;
    static ConsoleClient admin;
    static ConsoleClient engineer;
    static ConsoleBrowser browser;

    @BeforeAll
    static void start() throws Exception {
        ConsoleBrowser.requireChromium();
        postgres = PostgresServer.start(dir.resolve("postgres"));
        text = YAML.formatted(postgres.jdbcUrl());
        file = Files.writeString(dir.resolve("gateway.yaml"), text);
        data = DataDirectory.open(dir.resolve("data"));
        gateway = new Gateway(ConfigSource.loadFile(file, Map.of(), data.root()), data, Clock.systemUTC());
        gateway.lifecycle().startAll();
        String base = "http://127.0.0.1:" + gateway.console().port();
        admin = TestOperators.admin(gateway);
        for (String[] user : new String[][] {{ENGINEER, "engineer"}, {VIEWER, "viewer"}}) {
            assertThat(admin.post("/api/v1/users", """
                    {"name": "%s", "password": "%s", "roles": ["%s"]}""".formatted(user[0], PASSWORD, user[1]))
                    .statusCode()).isIn(200, 201);
        }
        engineer = ConsoleClient.signedIn(base, ENGINEER, PASSWORD);
        browser = ConsoleBrowser.start(base, dir.resolve("chromium-profile"));
        // the export's download lands where the test can read it
        browser.driver().executeCdpCommand("Browser.setDownloadBehavior", Map.of("behavior", "allow",
                "downloadPath", Files.createDirectories(dir.resolve("downloads")).toAbsolutePath().toString()));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            try {
                if (gateway != null) {
                    gateway.lifecycle().stopAll(Duration.ofSeconds(30));
                }
            } finally {
                try {
                    if (data != null) {
                        data.close();
                    }
                } finally {
                    if (postgres != null) {
                        postgres.close();
                    }
                }
            }
        }
    }

    private static JsonNode config() {
        return ConsoleTestGateway.json(admin.get("/api/v1/config"), "the configuration");
    }

    private static int batchMaxItems() {
        return config().path("config").path("outbound").path("db").path("store_and_forward").path("batch_max_items")
                .asInt();
    }

    private static int revisions() {
        return ConsoleTestGateway.json(admin.get("/api/v1/config/revisions"), "the revisions").size();
    }

    private static void reloadPage() {
        browser.driver().navigate().refresh();
        browser.waitFor("#cfg-detail-title");
    }

    @Test
    void anEngineerRollsBackAChangeImportsTheExportedFileAndABrokenOneAndAViewerOnlyLooks() throws Exception {
        browser.signIn(ENGINEER, PASSWORD);
        browser.click("#nav-configuration");
        browser.waitFor("[data-test=cfg-revision][data-number='1']");
        browser.waitFor("#cfg-detail-title[data-number='1']");

        // a change over the API is the newest revision, shown selected with its diff
        JsonNode written = ConsoleTestGateway.json(engineer.put(BATCH, """
                {"revision": "%s", "value": 100, "comment": "smaller batches"}""".formatted(
                config().path("fileRevision").asText())), "the change");
        assertThat(written.path("applied")).extracting(JsonNode::asText).containsExactly("outbound:db");
        assertThat(batchMaxItems()).isEqualTo(100);
        reloadPage();
        browser.waitFor("[data-test=cfg-revision][data-number='2'].selected");
        browser.waitForText("#cfg-row-2", "smaller batches");
        browser.waitForText("#cfg-row-2", ENGINEER);
        browser.waitFor("#cfg-detail [data-test=cfg-current]");
        assertThat(browser.waitFor("#cfg-diff .del").getText()).contains("batch_max_items: 500");
        assertThat(browser.waitFor("#cfg-diff .add").getText()).contains("batch_max_items: 100");
        assertThat(browser.driver().findElement(By.id("cfg-rollback")).isEnabled())
                .as("the file holds the newest revision: nothing to roll back to").isFalse();

        // roll back to revision 1: the confirmation shows the lines and asks for a comment
        browser.click("#cfg-select-1");
        browser.waitFor("#cfg-detail-title[data-number='1']");
        browser.click("#cfg-rollback");
        browser.waitFor("#cfg-rollback-dialog[open]");
        assertThat(browser.waitFor("#cfg-rollback-diff .del").getText()).contains("batch_max_items: 100");
        assertThat(browser.waitFor("#cfg-rollback-diff .add").getText()).contains("batch_max_items: 500");
        browser.click("#cfg-rollback-dialog [data-test=dialog-submit]");
        assertThat(browser.count("#cfg-rollback-dialog")).as("the comment is asked for").isEqualTo(1);
        assertThat(revisions()).as("nothing rolled back without a comment").isEqualTo(2);
        browser.type("#cfg-rollback-comment", "the historian needs the big batches");
        browser.screenshot("configuration-rollback");
        browser.click("#cfg-rollback-dialog [data-test=dialog-submit]");
        browser.waitForAbsent("#cfg-rollback-dialog");
        browser.waitForText("[data-test=cfg-written] [data-test=cfg-applied]", "outbound:db");
        browser.waitForText("[data-test=cfg-written] [data-test=cfg-need-restart]", "nothing");
        browser.waitFor("[data-test=cfg-revision][data-number='3'][data-source=rollback].selected");
        browser.waitForText("#cfg-row-3", "the historian needs the big batches");
        assertThat(batchMaxItems()).as("the value is back in what runs").isEqualTo(500);
        assertThat(Files.readString(file)).as("and in the file, comments and all").isEqualTo(text);
        browser.screenshot("configuration");

        // Export downloads the file; importing it again is the running configuration and changes nothing
        browser.click("#cfg-export");
        browser.waitFor("[data-test=cfg-exported][data-file='gateway.yaml']");
        Path downloaded = dir.resolve("downloads/gateway.yaml");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(downloaded) && Files.size(downloaded) > 0);
        String exported = ConsoleTestGateway.json(admin.get("/api/v1/config/export"), "the export").path("text").asText();
        assertThat(Files.readString(downloaded)).isEqualTo(exported).contains("admin_password: \"***\"");
        byte[] before = Files.readAllBytes(file);
        browser.waitFor("#cfg-import-file").sendKeys(downloaded.toAbsolutePath().toString());
        browser.waitFor("[data-test=cfg-import-result][data-valid=true][data-changes='0']");
        browser.waitFor("[data-test=cfg-import-same]");
        browser.waitForText("[data-test=cfg-import-restarts]", "Nothing restarts.");
        browser.click("#cfg-import-apply");
        browser.waitForText("[data-test=cfg-written]", "No key changed.");
        browser.waitForText("[data-test=cfg-written] [data-test=cfg-applied]", "nothing");
        assertThat(Files.readAllBytes(file)).as("the same file, byte for byte").isEqualTo(before);
        assertThat(revisions()).as("no new revision").isEqualTo(3);
        assertThat(batchMaxItems()).isEqualTo(500);

        // a broken file: every problem with its key path, no Apply, nothing changed
        Path broken = Files.writeString(dir.resolve("broken.yaml"), exported
                .replace("batch_max_items: 500", "batch_max_items: 0")
                .replace("max_bytes: 1048576", "max_bytes: 1048576\n      max_byts: 2"));
        browser.waitFor("#cfg-import-file").sendKeys(broken.toAbsolutePath().toString());
        browser.waitFor("[data-test=cfg-import-result][data-valid=false]");
        browser.waitFor("[data-test=cfg-problem][data-key='outbound.db.store_and_forward.batch_max_items']");
        browser.waitFor("[data-test=cfg-problem][data-key='outbound.db.store_and_forward.max_byts']");
        browser.waitForText("[data-test=cfg-import-result]", "Nothing was changed.");
        assertThat(browser.count("#cfg-import-apply")).as("no Apply for a broken file").isZero();
        assertThat(Files.readAllBytes(file)).as("file bytes unchanged").isEqualTo(before);
        assertThat(revisions()).isEqualTo(3);
        browser.click("#cfg-import-close");
        browser.waitForAbsent("[data-test=cfg-import-result]");

        // a file checked on a revision that another change overtakes before Apply: refused (409), shown, nothing written
        browser.waitFor("#cfg-import-file").sendKeys(downloaded.toAbsolutePath().toString());
        browser.waitFor("[data-test=cfg-import-result][data-valid=true]");
        ConsoleTestGateway.json(engineer.put(BATCH, """
                {"revision": "%s", "value": 200, "comment": "meanwhile"}""".formatted(
                config().path("fileRevision").asText())), "a change made meanwhile");
        String meanwhile = Files.readString(file);
        browser.click("#cfg-import-apply");
        browser.waitForText("[data-test=cfg-import-problems]", "the file changed meanwhile");
        assertThat(browser.waitFor("#cfg-stale-diff .add").getText()).contains("batch_max_items: 200");
        assertThat(browser.driver().findElement(By.id("cfg-import-apply")).isEnabled()).as("pick the file again").isFalse();
        assertThat(Files.readString(file)).as("nothing imported").isEqualTo(meanwhile);
        assertThat(revisions()).as("only the change made meanwhile").isEqualTo(4);
        assertThat(batchMaxItems()).isEqualTo(200);
        browser.click("#cfg-import-close");

        // Reload from disk: a broken hand edit shows its problems (422) and changes nothing; the file as the
        // gateway has it has nothing to reload
        Files.writeString(file, meanwhile.replace("batch_max_items: 200", "batch_max_items: -1"));
        browser.click("#cfg-reload");
        browser.waitForText("[data-test=cfg-reload-refused]", "Not reloaded");
        browser.waitFor("[data-test=cfg-reload-refused] [data-test=cfg-problem]"
                + "[data-key='outbound.db.store_and_forward.batch_max_items']");
        assertThat(batchMaxItems()).as("nothing applied").isEqualTo(200);
        assertThat(revisions()).isEqualTo(4);
        Files.writeString(file, meanwhile);
        browser.click("#cfg-reload");
        browser.waitForText("[data-test=cfg-reloaded]", "nothing to reload");
        browser.expectConsoleErrors(java.util.regex.Pattern.compile(
                "/api/v1/config/(import|reload) - Failed to load resource: the server responded with a status of (409|422)"));

        // a change that waits for a restart is named in a banner
        ConsoleTestGateway.json(engineer.put("/api/v1/config/gateway.name", """
                {"revision": "%s", "value": "line-2"}""".formatted(config().path("fileRevision").asText())),
                "a change that waits for a restart (the gateway's name)");
        reloadPage();
        browser.waitForText("[data-test=cfg-pending]", "gateway");
        browser.assertNoConsoleErrors();

        // a viewer sees the history and the diffs, and no action
        browser.signOut();
        browser.signIn(VIEWER, PASSWORD);
        browser.click("#nav-configuration");
        browser.waitFor("[data-test=cfg-revision][data-number='5'].selected");
        browser.click("#cfg-select-2");
        browser.waitFor("#cfg-detail-title[data-number='2']");
        assertThat(browser.waitFor("#cfg-diff .add").getText()).contains("batch_max_items: 100");
        browser.waitFor("[data-test=cfg-pending]");
        for (String action : new String[] {"#cfg-rollback", "#cfg-export", "#cfg-import-file", "#cfg-reload"}) {
            assertThat(browser.count(action)).as("a viewer has no " + action).isZero();
        }
        browser.assertNoConsoleErrors();
    }
}
