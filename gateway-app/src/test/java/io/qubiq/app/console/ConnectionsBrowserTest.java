package io.qubiq.app.console;

import static io.qubiq.app.console.ConsoleTestGateway.ENGINEER;
import static io.qubiq.app.console.ConsoleTestGateway.PASSWORD;
import static io.qubiq.app.console.ConsoleTestGateway.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.qubiq.core.tag.TagValue;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * Issue 22's Connections page, driven in Debian's Chromium against a whole gateway read from a file
 * (see {@link ConsoleTestGateway#startFromFile}): an engineer adds an OPC UA connection to the real
 * Milo test server in the console, Test connection says OK, browses it, ticks three variables and adds
 * them as tags in one change, and their values arrive within seconds with no restart, while the
 * historian keeps every value of the other connection's counting tag (no gap) and that connection
 * never restarts; then disables and deletes the new connection. A viewer sees none of the buttons.
 * Every test fails on an error in the browser's console. One gateway and one browser for the class.
 */
class ConnectionsBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final List<TestVariable> PICKED = List.of(TestVariable.INT32, TestVariable.DOUBLE, TestVariable.BOOLEAN);

    @TempDir
    static Path dir;

    static ConsoleTestGateway gateway;
    static ConsoleBrowser browser;

    @BeforeAll
    static void start() throws Exception {
        ConsoleBrowser.requireChromium();
        gateway = ConsoleTestGateway.startFromFile(dir);
        browser = ConsoleBrowser.start(gateway.base, dir.resolve("chromium-profile"));
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (gateway != null) {
                gateway.close();
            }
        }
    }

    @Test
    void anEngineerAddsAnOpcUaConnectionTestsItAndAddsThreeBrowsedTagsThatArriveWithoutARestart() throws Exception {
        Instant started = Instant.now();
        String plc1Since = gateway.read("/api/v1/connections/plc1").path("since").asText();
        AtomicBoolean counting = new AtomicBoolean(true);
        List<Double> delivered = new CopyOnWriteArrayList<>();
        gateway.gateway().tagBus().subscribe(SubscriptionSpec.perValue("pressure-recorder", 100_000,
                OverflowPolicy.DROP_OLDEST, (TagValue value) -> {
                    if (value.path().toString().equals("plant/pressure") && value.value() instanceof Number n
                            && n.doubleValue() > 1000) {
                        delivered.add(n.doubleValue());
                    }
                }));
        // plc1's plant/pressure counts up, 1001, 1002, ... every 250 ms: the historian must keep every value.
        // (The test server samples at 20 ms; a slower count leaves room for a sampler delayed on a busy machine.)
        Thread counter = new Thread(() -> {
            double n = 1000;
            while (counting.get()) {
                gateway.device.setValue(TestVariable.PRESSURE, ++n);
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "pressure-counter");
        counter.start();
        try {
            browser.signIn(ENGINEER, PASSWORD);
            browser.open("#/connections");
            browser.waitFor("[data-test=device-row][data-id=plc1] #edit-plc1");

            // the form checks what is typed before anything is sent
            browser.click("#add-opcua");
            browser.waitFor("#connection-dialog");
            browser.type("#cf-id", "plc1");
            browser.waitForText("#cf-id-problem", "exists already");
            browser.type("#cf-id", "plc2");
            browser.type("#cf-opcua-endpoint_url", gateway.device.endpointUrl());
            browser.type("#cf-opcua-publishing_interval_ms", "5");
            browser.waitForText("#cf-opcua-publishing_interval_ms-problem", "must be at least 10");
            browser.type("#cf-opcua-publishing_interval_ms", "100");
            browser.waitForAttribute("#cf-opcua-publishing_interval_ms", "aria-invalid", "false"::equals, "a valid interval");

            browser.click("#cf-test");
            browser.waitForAttribute("#cf-test-result", "data-ok", "true"::equals, "Test connection OK");
            assertThat(browser.waitForText("#cf-test-result", "OK")).contains("reachable: yes", "authenticated: yes",
                    "certificate: not used", "connected to " + gateway.device.endpointUrl());
            browser.driver().executeScript("document.getElementById('cf-test-result').scrollIntoView({block: 'end'})");
            browser.screenshot("connection-form");
            browser.click("#connection-dialog [data-test=dialog-submit]");
            browser.waitForAbsent("#connection-dialog");
            browser.waitForText("#connections-result", "Applied live: device:plc2");
            assertThat(Files.readString(dir.resolve("gateway.yaml"))).contains("plc2:", gateway.device.endpointUrl());

            // browse, tick three variables, add them as tags in one change
            browser.click("#browse-plc2");
            browser.click("#browse-tree .tree-toggle[data-node='" + gateway.device.folderNodeId() + "']");
            for (TestVariable variable : PICKED) {
                browser.click("#browse-tree input[type=checkbox][data-node='" + gateway.device.nodeId(variable) + "']");
            }
            browser.waitForText("#browse-picked", "3 selected");
            browser.click("#browse-add-tags");
            browser.waitFor("#add-tags-dialog");
            browser.type("#bt-sampling_interval_ms", "50");
            browser.type("#bt-unit", "bar");
            browser.waitForText("#bt-preview", "plc2/Int32");
            assertThat(browser.driver().findElements(By.cssSelector("[data-test=tag-preview-item]"))).hasSize(3);
            browser.driver().executeScript("document.getElementById('bt-preview').scrollIntoView({block: 'end'})");
            browser.screenshot("browse-add-tags");
            long revisionsBefore = gateway.read("/api/v1/config/revisions").size();
            browser.click("#add-tags-dialog [data-test=dialog-submit]");
            browser.waitForAbsent("#add-tags-dialog");
            browser.waitForText("#browse-result", "applied live: device:plc2");
            assertThat(gateway.read("/api/v1/config/revisions").size()).as("one change, one revision")
                    .isEqualTo(revisionsBefore + 1);

            // the values arrive within seconds, with no restart of the gateway or of plc1
            gateway.device.setValue(TestVariable.INT32, 4711);
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                assertThat(gateway.admin.get("/api/v1/tags/plc2/Int32").body()).contains("4711");
                assertThat(gateway.admin.get("/api/v1/tags/plc2/Double").statusCode()).isEqualTo(200);
                assertThat(gateway.admin.get("/api/v1/tags/plc2/Boolean").statusCode()).isEqualTo(200);
            });
            assertThat(gateway.read("/api/v1/connections/plc2").path("tags").asInt()).isEqualTo(3);
            assertThat(gateway.read("/api/v1/connections/plc1").path("since").asText()).as("plc1 never restarted")
                    .isEqualTo(plc1Since);
            assertThat(Files.readString(dir.resolve("gateway.yaml"))).contains("engineering_unit: bar");
            browser.assertNoConsoleErrors();
        } finally {
            counting.set(false);
            counter.join();
        }
        assertHistorianKeptEveryValue(started, delivered);

        // disable, then delete (confirmed): each one change applied to plc2 alone
        browser.click("#disable-plc2");
        browser.waitForText("[data-test=device-row][data-id=plc2]", "DISABLED");
        assertThat(gateway.admin.get("/api/v1/connections/plc2").statusCode()).isEqualTo(404);
        browser.click("#delete-plc2");
        browser.click("#confirm-ok");
        browser.waitForAbsent("[data-test=device-row][data-id=plc2]");
        assertThat(Files.readString(dir.resolve("gateway.yaml"))).doesNotContain("plc2:");
        assertThat(gateway.read("/api/v1/connections/plc1").path("since").asText()).isEqualTo(plc1Since);
        browser.assertNoConsoleErrors();
    }

    /**
     * Outbound connections from the Connections page: a setting of an existing one changed in its form applies
     * live (its sink replaced), a new one is written to the file and starts at once, and a password typed
     * for it reaches the secrets store, not the file. Would catch a form that writes nothing, loses the
     * connection's store-and-forward section, or writes a password in clear.
     */
    @Test
    void anEngineerEditsAnOutboundConnectionLiveAndAddsOneThatStartsAtOnce() throws Exception {
        browser.signIn(ENGINEER, PASSWORD);
        browser.open("#/connections");
        browser.click("#edit-outbound-archive");
        browser.waitFor("#outbound-dialog");
        browser.type("#of-connection_timeout_ms", "4321");
        browser.click("#of-test");
        browser.waitForAttribute("#of-test-result", "data-ok", "true"::equals, "the archive database answers");
        submitOutboundForm();
        browser.waitForAbsent("#outbound-dialog");
        browser.waitForText("#connections-result", "Applied live: outbound:archive");
        assertThat(Files.readString(dir.resolve("gateway.yaml"))).contains("4321");

        browser.driver().findElement(By.cssSelector("#add-outbound-kind option[value='mqtt']")).click();
        browser.click("#add-outbound");
        browser.waitFor("#outbound-dialog");
        browser.type("#of-id", "lake");
        browser.type("#of-host", "127.0.0.1");
        browser.type("#of-password", "lake-secret-42");
        submitOutboundForm();
        // the gateway's own check, shown at its field: MQTT sends no password without a user name
        browser.waitForText("#of-password-problem", "needs a username");
        browser.type("#of-username", "lake-gateway");
        submitOutboundForm();
        browser.waitForAbsent("#outbound-dialog");
        browser.waitForText("#connections-result", "Applied live: outbound:lake");
        String file = Files.readString(dir.resolve("gateway.yaml"));
        assertThat(file).contains("lake:", "${secret:outbound.lake.mqtt.password-1}").doesNotContain("lake-secret-42");
        drainProvoked("/api/v1/config/outbound.lake", "422");
        browser.assertNoConsoleErrors();

        // leave the shared gateway's file as the other tests expect it
        String revision = gateway.read("/api/v1/config").path("fileRevision").asText();
        assertThat(gateway.admin.send("DELETE", "/api/v1/config/outbound.lake",
                "{\"revision\": \"" + revision + "\"}").statusCode()).isEqualTo(200);
    }

    /**
     * A user name and password typed in the form: Test connection authenticates with them, Save keeps the
     * password in the gateway's secrets store and writes only a reference into the file, and the connection
     * connects with it. Would catch a password written into the file or a revision, and one lost on the way
     * to the connector.
     */
    @Test
    void aPasswordTypedInTheFormAuthenticatesAndOnlyAReferenceReachesTheFile() throws Exception {
        browser.signIn(ENGINEER, PASSWORD);
        browser.open("#/connections");
        browser.click("#add-opcua");
        browser.waitFor("#connection-dialog");
        browser.type("#cf-id", "plc3");
        browser.type("#cf-opcua-endpoint_url", gateway.device.endpointUrl());
        browser.driver().findElement(By.cssSelector("#cf-opcua-identity-type option[value='username']")).click();
        browser.type("#cf-opcua-identity-username", TestOpcUaServer.USERNAME);
        browser.type("#cf-password", TestOpcUaServer.PASSWORD);
        browser.click("#cf-test");
        browser.waitForAttribute("#cf-test-result", "data-ok", "true"::equals, "Test connection OK");
        browser.click("#connection-dialog [data-test=dialog-submit]");
        browser.waitForAbsent("#connection-dialog");
        browser.waitForText("#connections-result", "Applied live: device:plc3");

        String file = Files.readString(dir.resolve("gateway.yaml"));
        assertThat(file).contains("${secret:devices.plc3.opcua.identity.password-1}")
                .doesNotContain(TestOpcUaServer.PASSWORD);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(gateway.read("/api/v1/connections/plc3").path("state").asText()).isEqualTo("UP"));

        browser.click("#delete-plc3");
        browser.click("#confirm-ok");
        browser.waitForAbsent("[data-test=device-row][data-id=plc3]");
        browser.assertNoConsoleErrors();
    }

    /**
     * Editing plc1: a problem only the server finds (a security policy without a matching mode) comes
     * back by key path and stands next to its field, nothing is written; the corrected change is saved
     * as one edited line and applied live; a change made by someone else while the form is open makes Save
     * answer 409, said in the form, nothing written. An MQTT connection's form tests a broker nobody listens on.
     */
    @Test
    void anEngineerEditsAConnectionSeesTheServersProblemAtItsFieldAndSavesTheFix() throws Exception {
        browser.signIn(ENGINEER, PASSWORD);
        browser.open("#/connections");
        String before = Files.readString(dir.resolve("gateway.yaml"));
        browser.click("#edit-plc1");
        browser.waitFor("#connection-dialog");
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#cf-opcua-security_policy"))
                .selectByValue("basic256sha256");
        browser.click("#connection-dialog [data-test=dialog-submit]");
        browser.waitForText("#cf-opcua-security_mode-problem", "security_policy none goes with security_mode none");
        assertThat(Files.readString(dir.resolve("gateway.yaml"))).isEqualTo(before);
        drainExpected("422");

        new org.openqa.selenium.support.ui.Select(browser.waitFor("#cf-opcua-security_policy")).selectByValue("none");
        browser.type("#cf-opcua-publishing_interval_ms", "250");
        browser.click("#connection-dialog [data-test=dialog-submit]");
        browser.waitForAbsent("#connection-dialog");
        browser.waitForText("#connections-result", "Applied live: device:plc1");
        String after = Files.readString(dir.resolve("gateway.yaml"));
        assertThat(after).contains("publishing_interval_ms: 250");
        assertThat(after.lines().count()).as("one key added, nothing else rewritten")
                .isEqualTo(before.lines().count() + 1);
        browser.waitForText("[data-test=device-row][data-id=plc1]", "UP");

        // someone else changes the file while the form is open: Save is refused (409) and says so
        browser.click("#edit-plc1");
        browser.waitFor("#connection-dialog");
        String revision = gateway.read("/api/v1/config").path("fileRevision").asText();
        assertThat(gateway.admin.put("/api/v1/config/devices.plc1.opcua.request_timeout_ms", """
                {"revision": "%s", "value": 6000, "comment": "meanwhile"}""".formatted(revision)).statusCode())
                .isEqualTo(200);
        browser.type("#cf-opcua-publishing_interval_ms", "300");
        browser.click("#connection-dialog [data-test=dialog-submit]");
        browser.waitForText("#connection-dialog [data-test=dialog-message]", "the configuration changed meanwhile");
        browser.waitForText("#cf-problems", "Someone changed the configuration since this dialog opened");
        assertThat(Files.readString(dir.resolve("gateway.yaml"))).contains("publishing_interval_ms: 250")
                .doesNotContain("publishing_interval_ms: 300");
        drainExpected("409");
        browser.click("#connection-dialog [data-test=dialog-cancel]");
        browser.waitForAbsent("#connection-dialog");

        browser.click("#add-mqtt");
        browser.waitFor("#connection-dialog");
        browser.type("#cf-id", "broker9");
        browser.type("#cf-mqtt-host", "127.0.0.1");
        browser.type("#cf-mqtt-port", "1");
        browser.click("#cf-add-subscription");
        browser.type("#cf-subscriptions [data-sub=topic]", "plant/#");
        browser.type("#cf-subscriptions [data-sub=tag]", "mqtt/{1}");
        browser.click("#cf-test");
        browser.waitForAttribute("#cf-test-result", "data-ok", "false"::equals, "Test connection failed");
        assertThat(browser.waitForText("#cf-test-result", "Failed")).contains("reachable: no",
                "cannot reach mqtt://127.0.0.1:1");
        browser.click("#connection-dialog [data-test=dialog-cancel]");
        browser.waitForAbsent("#connection-dialog");
        assertThat(Files.readString(dir.resolve("gateway.yaml"))).doesNotContain("broker9");
        browser.assertNoConsoleErrors();
    }

    /** Closes what a failed step left open (saving a screenshot of it) and signs out. */
    @AfterEach
    void leave(TestInfo test) {
        if (browser.count("dialog[open]") > 0) {
            browser.screenshot(test.getTestMethod().map(m -> m.getName()).orElse("test") + "-left-open");
            browser.driver().executeScript("document.querySelectorAll('dialog[open]').forEach((d) => d.close())");
        }
        if (browser.count("#sign-out") > 0) {
            browser.signOut();
        }
    }

    /** The outbound form is taller than the window: its Save button is scrolled into view first. */
    private static void submitOutboundForm() {
        browser.driver().executeScript("document.querySelector('#outbound-dialog [data-test=dialog-submit]')"
                + ".scrollIntoView({block: 'end'})");
        browser.click("#outbound-dialog [data-test=dialog-submit]");
    }

    /** As {@link #drainExpected}, for a provoked {@code status} answered on {@code path}. */
    private static void drainProvoked(String path, String status) {
        for (org.openqa.selenium.logging.LogEntry entry : browser.driver().manage().logs()
                .get(org.openqa.selenium.logging.LogType.BROWSER)) {
            if (entry.getLevel().intValue() < java.util.logging.Level.SEVERE.intValue()
                    || entry.getMessage().contains("/api/v1/session - ") || entry.getMessage().contains("/health - ")) {
                continue;
            }
            assertThat(entry.getMessage()).as("the only console error is the provoked " + status)
                    .contains(path, "status of " + status);
        }
    }

    /** Chromium logs the 4xx the test provoked as a console error: read it here, so only others fail the test. */
    private static void drainExpected(String status) {
        for (org.openqa.selenium.logging.LogEntry entry : browser.driver().manage().logs()
                .get(org.openqa.selenium.logging.LogType.BROWSER)) {
            if (entry.getLevel().intValue() < java.util.logging.Level.SEVERE.intValue()
                    || entry.getMessage().contains("/api/v1/session - ") || entry.getMessage().contains("/health - ")) {
                continue; // the page's own, as ConsoleBrowser expects them
            }
            assertThat(entry.getMessage()).as("the only console error is the provoked " + status)
                    .contains("/api/v1/config/devices.plc1", "status of " + status);
        }
    }

    @Test
    void aViewerSeesNoButtonToChangeConnectionsAndNoCheckboxesInTheBrowseTree() {
        browser.signIn(VIEWER, PASSWORD);
        browser.open("#/connections");
        browser.waitFor("[data-test=device-row][data-id=plc1]");
        browser.click("#browse-plc1");
        browser.waitFor("#browse-tree .tree-toggle[data-node='" + gateway.device.folderNodeId() + "']");
        assertThat(browser.count("#add-opcua, #add-mqtt, #edit-plc1, #test-plc1, #disable-plc1, #delete-plc1,"
                + " #browse-add-tags, #browse-tree input[type=checkbox]")).isZero();
        browser.assertNoConsoleErrors();
    }

    /**
     * Every value plant/pressure took while plc2 was added and changed reached the tag bus (counting up
     * without a gap), and the historian holds exactly those values, in order.
     */
    private static void assertHistorianKeptEveryValue(Instant from, List<Double> delivered) {
        double last = ((Number) gateway.device.value(TestVariable.PRESSURE)).doubleValue();
        await().atMost(WAIT).until(() -> delivered.contains(last));
        String query = "/api/v1/history?tags=plant/pressure&from=" + URLEncoder.encode(from.minusSeconds(5).toString(),
                StandardCharsets.UTF_8) + "&to=" + URLEncoder.encode(Instant.now().plusSeconds(60).toString(),
                StandardCharsets.UTF_8);
        List<Double> stored = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            stored.clear();
            for (JsonNode series : gateway.read(query)) {
                for (JsonNode point : series.path("points")) {
                    if (point.path("value").isNumber() && point.path("value").asDouble() > 1000) {
                        stored.add(point.path("value").asDouble());
                    }
                }
            }
            return stored.contains(last);
        });
        List<Double> expected = new ArrayList<>();
        for (double n = delivered.get(0); n <= last; n++) {
            expected.add(n);
        }
        assertThat(delivered).as("plc1 delivered every value while plc2 was added (a gap here is a value the test"
                + " server's sampler skipped, or the connection lost; plc1's counters: "
                + gateway.read("/api/v1/connections/plc1").path("counters") + ")").containsExactlyElementsOf(expected);
        assertThat(stored).as("the historian kept every value of plc1's tag while plc2 was added")
                .containsExactlyElementsOf(delivered);
    }
}
