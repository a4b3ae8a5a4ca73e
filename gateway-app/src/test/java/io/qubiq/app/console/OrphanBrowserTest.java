package io.qubiq.app.console;

import static io.qubiq.app.console.ConsoleTestGateway.ENGINEER;
import static io.qubiq.app.console.ConsoleTestGateway.PASSWORD;
import static io.qubiq.app.console.ConsoleTestGateway.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qubiq.buffer.BufferOptions;
import io.qubiq.buffer.Durability;
import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.buffer.WatermarkListener;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * Issue 22's orphan flow in Debian's Chromium against a whole gateway with real servers
 * ({@link ConsoleTestGateway}): an engineer discards the buffer a renamed connection left behind from
 * the Store &amp; Forward page, after typing its name, and finds its items on the Data integrity page and
 * in the loss API as {@code orphan_discarded} by them; a viewer has no buttons. Fails on an error in the
 * browser's console.
 */
class OrphanBrowserTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static ConsoleTestGateway gateway;
    static ConsoleBrowser browser;

    @BeforeAll
    static void start() throws Exception {
        ConsoleBrowser.requireChromium();
        orphanedBuffer(dir.resolve("data/connections/db-gone/buffer"), 7);
        gateway = ConsoleTestGateway.start(dir);
        browser = ConsoleBrowser.start(gateway.base, dir.resolve("chromium-profile"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    @AfterEach
    void signOutAndCheckTheConsole() {
        if (browser.count("#sign-out") > 0 && browser.driver().findElement(By.id("sign-out")).isDisplayed()) {
            browser.signOut();
        }
        browser.assertNoConsoleErrors();
    }

    private static void orphanedBuffer(Path bufferDir, int items) throws Exception {
        SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(new BufferOptions(bufferDir, 64 * 1024, 1L << 20, 0.8,
                0.6, OverflowPolicy.REFUSE, Durability.PERIODIC, 1_000), WatermarkListener.none());
        try {
            for (int i = 0; i < items; i++) {
                buffer.appendBatch(List.of(("row " + i).getBytes(StandardCharsets.UTF_8)));
            }
            buffer.sync();
        } finally {
            buffer.close();
        }
    }

    @Test
    void aViewerSeesTheOrphanButNoButtons() {
        browser.open("");
        browser.waitFor("#signin-user");
        browser.signIn(VIEWER, PASSWORD);
        browser.open("#/store-forward");
        browser.waitFor("[data-test=sf-orphan][data-connection=db-gone]");
        assertThat(browser.count("[data-test=sf-orphan-discard]")).isZero();
        assertThat(browser.count("[data-test=sf-orphan-attach]")).isZero();
    }

    @Test
    void anEngineerDiscardsAnOrphanAndFindsItsItemsInTheLossLedger() throws Exception {
        browser.open("");
        browser.waitFor("#signin-user");
        browser.signIn(ENGINEER, PASSWORD);
        browser.open("#/store-forward");
        String row = "[data-test=sf-orphan][data-connection=db-gone]";
        browser.waitForText(row, "7 items");

        browser.click(row + " [data-test=sf-orphan-discard]");
        browser.waitFor("#orphan-discard-dialog");
        browser.type("[data-test=sf-orphan-discard-confirm]", "db-gon");
        browser.click("#orphan-discard-dialog [data-test=dialog-submit]");
        browser.waitForText("#orphan-discard-dialog [data-test=dialog-message]", "Type db-gone to confirm");
        browser.type("[data-test=sf-orphan-discard-confirm]", "db-gone");
        browser.type("[data-test=sf-orphan-discard-comment]", "line 3 was retired");
        browser.click("#orphan-discard-dialog [data-test=dialog-submit]");
        browser.waitForText("[data-test=sf-settings-outcome]", "recorded as lost");
        browser.waitForAbsent(row);
        assertThat(dir.resolve("data/connections/db-gone")).doesNotExist();

        JsonNode report = JSON.readTree(gateway.admin.get("/api/v1/losses?connection=db-gone").body());
        assertThat(report.toString()).contains("orphan_discarded", ENGINEER, "line 3 was retired");
        browser.open("#/data-integrity");
        browser.waitFor("[data-test=loss-row][data-reason=orphan_discarded][data-connection=db-gone]");
        browser.waitForText("[data-test=loss-row][data-reason=orphan_discarded]", "7");
        browser.screenshot("orphan-discarded");
    }
}
