package io.qubiq.app.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.app.FileGateway;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings → Historian in Chromium, against a gateway whose historian writes into the embedded QuestDB:
 * a storage rule added and the default rule edited apply live (the answer says so and the file holds
 * them), a retention change waits for a restart. Would catch a form that writes nothing or the wrong key,
 * and a page that claims a live change the gateway did not make.
 */
class HistorianSettingsBrowserTest {

    @TempDir
    Path dir;
    private Path file;
    private FileGateway running;
    private Gateway gateway;
    private ConsoleBrowser browser;

    @BeforeEach
    void start() throws Exception {
        ConsoleBrowser.requireChromium();
        running = FileGateway.start(dir, """
                http:
                  port: 0
                logging:
                  file_enabled: false
                questdb:
                  embedded: true
                  embedded_http_port: 0
                  embedded_pg_port: 0
                  embedded_max_heap_mb: 256
                historian:
                  ttl_days: 90
                """);
        file = running.file;
        gateway = running.gateway;
        browser = ConsoleBrowser.start(running.base(), dir.resolve("profile"));
        browser.signIn(TestOperators.ADMIN, TestOperators.ADMIN_PASSWORD);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        running.close();
    }

    @Test
    void anEngineerAddsARuleAndEditsTheDefaultLiveAndARetentionChangeWaitsForARestart() throws Exception {
        browser.open("#/historian");
        browser.waitFor("#historian-rules tr[data-rule='default']");

        browser.click("#historian-add-rule");
        browser.type("#rule-tags", "line1/**");
        browser.driver().findElement(org.openqa.selenium.By.cssSelector("#rule-mode option[value='always']")).click();
        browser.click("#historian-rule [data-test='dialog-submit']");
        assertThat(browser.waitFor("[data-test='historian-written']").getText())
                .contains("Storage rule for line1/** added", "applied live: historian");
        browser.waitFor("#historian-rules tr[data-rule='0']");
        assertThat(Files.readString(file)).contains("tags: line1/**", "mode: always");

        browser.click("#historian-rules tr[data-rule='default'] [data-test='rule-edit']");
        browser.driver().findElement(org.openqa.selenium.By.cssSelector("#rule-deadband-kind option[value='absolute']"))
                .click();
        browser.type("#rule-deadband", "0.5");
        browser.click("#historian-rule [data-test='dialog-submit']");
        browser.waitForText("[data-test='historian-written']", "Default storage rule changed: applied live: historian.");
        assertThat(Files.readString(file)).contains("deadband_absolute: 0.5");
        browser.screenshot("historian-settings");

        browser.click("#historian-edit-retention");
        browser.driver().findElement(org.openqa.selenium.By.id("retention-days")).clear();
        browser.type("#retention-days", "30");
        browser.click("#historian-retention-dialog [data-test='dialog-submit']");
        browser.waitForText("[data-test='historian-written']", "Retention changed: waits for a restart: historian.");
        assertThat(Files.readString(file)).contains("ttl_days: 30");
        browser.assertNoConsoleErrors();
    }
}
