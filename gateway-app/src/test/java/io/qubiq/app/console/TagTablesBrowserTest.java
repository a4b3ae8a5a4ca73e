package io.qubiq.app.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.app.FileGateway;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.core.tag.TagPath;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The Tags page's CSV export and import, in Chromium against a gateway reading a real OPC UA server (Milo):
 * a table with a bad row shows the problem at its line and changes nothing; the corrected table adds a tag
 * that collects without a restart. Would catch a page that hides the line of a problem, an import that
 * writes part of a table, and buttons that do nothing.
 */
@ExtendWith(OpcUaServerExtension.class)
class TagTablesBrowserTest {

    @TempDir
    Path dir;
    private Path file;
    private FileGateway running;
    private Gateway gateway;
    private ConsoleBrowser browser;

    @BeforeEach
    void start(TestOpcUaServer server) throws Exception {
        ConsoleBrowser.requireChromium();
        running = FileGateway.start(dir, """
                http:
                  port: 0
                logging:
                  file_enabled: false
                devices:
                  plc1:
                    opcua:
                      endpoint_url: %s
                      tags:
                        - path: plant/pressure
                          node_id: "%s"
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.PRESSURE)));
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

    private void pick(Path csv) {
        WebElement input = browser.driver().findElement(By.id("tag-table-file"));
        browser.driver().executeScript("arguments[0].hidden = false;", input);
        input.sendKeys(csv.toString());
    }

    @Test
    void anEngineerImportsATableOfTagsABadRowIsShownAtItsLineAndTheFixedOneCollects(TestOpcUaServer server)
            throws Exception {
        browser.open("#/tags");
        browser.waitFor("#tag-table-connection option[value='plc1']");
        browser.click("#tag-table-export");
        browser.waitFor("[data-test='tag-table-exported']");
        byte[] before = Files.readAllBytes(file);

        String header = "path,node_id,sampling_interval_ms\n";
        String pressure = "plant/pressure," + server.nodeId(TestVariable.PRESSURE) + ",\n";
        Path bad = Files.writeString(dir.resolve("bad.csv"), header + pressure
                + "line/count,\"" + server.nodeId(TestVariable.INT32) + "\",fast\n");
        browser.expectConsoleErrors(Pattern.compile("tags/import - Failed to load resource: the server responded"
                + " with a status of 422"));
        pick(bad);
        browser.waitFor("[data-test='tag-table-refused'] li[data-line='3']");
        assertThat(browser.waitFor("[data-test='tag-table-refused'] li").getText())
                .startsWith("line 3: sampling_interval_ms");
        assertThat(Files.readAllBytes(file)).as("nothing written").isEqualTo(before);
        browser.screenshot("tags-csv-import");

        Path good = Files.writeString(dir.resolve("good.csv"), header + pressure
                + "line/count,\"" + server.nodeId(TestVariable.INT32) + "\",100\n");
        pick(good);
        assertThat(browser.waitFor("[data-test='tag-table-imported']").getText()).contains("applied live: device:plc1");
        server.setValue(TestVariable.INT32, 7);
        await().atMost(Duration.ofSeconds(20)).until(() ->
                gateway.tagBus().latestValues().latest(TagPath.of("line/count")).isPresent());
        browser.assertNoConsoleErrors();
    }
}
