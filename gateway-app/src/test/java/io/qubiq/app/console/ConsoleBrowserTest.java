package io.qubiq.app.console;

import static io.qubiq.app.console.ConsoleTestGateway.ENGINEER;
import static io.qubiq.app.console.ConsoleTestGateway.ADMIN;
import static io.qubiq.app.console.ConsoleTestGateway.ADMIN_PASSWORD;
import static io.qubiq.app.console.ConsoleTestGateway.PASSWORD;
import static io.qubiq.app.console.ConsoleTestGateway.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.opcua.TestVariable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * Issue #7's console, driven in Debian's Chromium against a whole gateway with real servers (see
 * {@link ConsoleTestGateway}): an engineer watches an outage of PostgreSQL fill and drain the
 * channel on the Store &amp; Forward page, retries one quarantined item and drops another, and finds
 * both in the audit journal; a viewer can do neither, in the page or through the API; an administrator
 * disables and enables a pipeline and sees the historian's WAL tables and the active alarms. Every test
 * fails on an error in the browser's console. One gateway and one browser for the class.
 */
class ConsoleBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;

    static ConsoleTestGateway gateway;
    static ConsoleBrowser browser;

    @BeforeAll
    static void start() throws Exception {
        ConsoleBrowser.requireChromium(); // before the servers, so a missing browser fails at once
        orphanedBuffer(dir.resolve("data/connections/db-renamed/buffer"), 3);
        gateway = ConsoleTestGateway.start(dir);
        browser = ConsoleBrowser.start(gateway.base, dir.resolve("chromium-profile"));
    }

    /** What a connection renamed from db-renamed left behind: a buffer still holding {@code items}. */
    private static void orphanedBuffer(Path bufferDir, int items) throws Exception {
        io.qubiq.buffer.SegmentedDiskBuffer buffer = io.qubiq.buffer.SegmentedDiskBuffer.open(
                new io.qubiq.buffer.BufferOptions(bufferDir, 64 * 1024, 1L << 20, 0.8, 0.6,
                        io.qubiq.buffer.OverflowPolicy.REFUSE, io.qubiq.buffer.Durability.PERIODIC, 1_000),
                io.qubiq.buffer.WatermarkListener.none());
        try {
            for (int i = 0; i < items; i++) {
                buffer.appendBatch(java.util.List.of(("row " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
            buffer.sync();
        } finally {
            buffer.close();
        }
    }

    @Test
    void theDataOfARenamedConnectionIsListedAsAnOrphanOnTheStoreAndForwardPage() {
        browser.open("");
        browser.waitFor("#signin-user");
        browser.signIn(ENGINEER, PASSWORD);
        browser.waitFor("#sf-row-db");
        browser.waitFor("[data-test=sf-orphan][data-connection=db-renamed]");
        browser.waitForText("[data-test=sf-orphan][data-connection=db-renamed]", "3 items");
        browser.waitFor("[data-test=sf-orphans-banner]");
    }

    /**
     * Issue 22: the settings of a channel are edited on the Store &amp; Forward page. Configuration writes
     * need a gateway started from a file, so this test starts its own (PostgreSQL the same as the class's)
     * and its own browser: an engineer sees db's overflow policy and durability, opens Edit, changes
     * batch_max_items and max_bytes, applies, is told they applied live and sees the new values; low water
     * above high water is marked at its field, Apply sends nothing, and the file stays as it was. The audit
     * channel and a viewer have no Edit.
     */
    @Test
    void anEngineerEditsAChannelsSettingsThatApplyLiveAndAnInvalidOneChangesNothing() throws Exception {
        Path home = dir.resolve("settings-gateway");
        Path file = java.nio.file.Files.createDirectories(home).resolve("gateway.yaml");
        java.nio.file.Files.writeString(file, io.qubiq.app.TestOperators.AUTH_YAML + """
                gateway: {name: settings}
                http:
                  port: 0
                logging:
                  file_enabled: false
                outbound:
                  db:
                    sql: {jdbc_url: "%s", username: postgres, connection_timeout_ms: 1000}
                    store_and_forward:
                      max_bytes: 1048576
                      segment_bytes: 262144
                """.formatted(gateway.postgres.jdbcUrl()));
        io.qubiq.app.runtime.DataDirectory data = io.qubiq.app.runtime.DataDirectory.open(home.resolve("data"));
        io.qubiq.app.Gateway own = new io.qubiq.app.Gateway(io.qubiq.app.config.ConfigSource.loadFile(file, java.util.Map.of(), data.root()),
                data, java.time.Clock.systemUTC());
        ConsoleBrowser page = null;
        try {
            own.lifecycle().startAll();
            String base = "http://127.0.0.1:" + own.console().port();
            ConsoleClient admin = io.qubiq.app.TestOperators.admin(own);
            for (String[] user : new String[][] {{ENGINEER, "engineer"}, {VIEWER, "viewer"}}) {
                assertThat(admin.post("/api/v1/users", """
                        {"name": "%s", "password": "%s", "roles": ["%s"]}""".formatted(user[0], PASSWORD, user[1]))
                        .statusCode()).isIn(200, 201);
            }
            page = ConsoleBrowser.start(base, home.resolve("chromium-profile"));
            page.signIn(ENGINEER, PASSWORD);
            page.open("#/store-forward");
            page.waitForText("#sf-row-db [data-test=sf-policy]", "default for sql");
            page.waitForText("#sf-row-db [data-test=sf-durability]", "periodic");
            page.waitForText("#sf-row-audit [data-test=sf-settings]", "not an outbound connection");
            assertThat(page.count("#sf-row-audit [data-test=sf-edit]")).as("the audit channel is not edited here").isZero();

            page.click("#sf-edit-db");
            page.waitFor("#channel-settings");
            assertThat(page.waitFor("#cs-max_bytes").getDomAttribute("min")).as("the schema's minimum").isNotBlank();
            page.waitForText("#channel-settings [data-key=max_bytes] label", "(bytes)");
            page.type("#cs-batch_max_items", "123");
            page.type("#cs-max_bytes", "2097152");
            page.type("#cs-comment", "more room for outages");
            page.screenshot("store-forward-settings");
            page.click("#channel-settings [data-test=dialog-submit]");
            page.waitForAbsent("#channel-settings");
            String outcome = page.waitForText("[data-test=sf-settings-outcome]", "Applied live");
            assertThat(outcome).as("only what was changed is written").contains("2 keys changed")
                    .contains("batch_max_items 500 → 123");
            page.waitForAttribute("#sf-row-db [data-test=sf-limits]", "data-batch-max-items", "123"::equals,
                    "batch_max_items 123 in the row");
            page.waitForAttribute("#sf-row-db [data-test=sf-limits]", "data-max-bytes", "2097152"::equals,
                    "max_bytes 2097152 in the row");
            JsonNode written = ConsoleTestGateway.json(admin.get("/api/v1/config"), "the configuration")
                    .path("config").path("outbound").path("db").path("store_and_forward");
            assertThat(written.path("batch_max_items").asInt()).isEqualTo(123);
            assertThat(written.path("max_bytes").asLong()).isEqualTo(2097152);
            String fileAfterChange = java.nio.file.Files.readString(file);

            page.click("#sf-edit-db");
            page.waitFor("#channel-settings");
            page.type("#cs-low_water_percent", "90");
            page.waitForText("#channel-settings [data-test=field-problem][data-key=low_water_percent]",
                    "outbound.db.store_and_forward.low_water_percent");
            page.click("#channel-settings [data-test=dialog-submit]");
            page.waitForText("#channel-settings [data-test=dialog-message]", "nothing was sent");
            assertThat(page.count("#channel-settings")).as("the dialog stays open").isEqualTo(1);
            page.driver().findElement(By.cssSelector("#channel-settings")).sendKeys(Keys.ESCAPE);
            page.waitForAbsent("#channel-settings");
            assertThat(java.nio.file.Files.readString(file)).as("the file is unchanged").isEqualTo(fileAfterChange);

            page.signOut();
            page.signIn(VIEWER, PASSWORD);
            page.open("#/store-forward");
            page.waitForText("#sf-row-db [data-test=sf-policy]", "default for sql");
            assertThat(page.count("[data-test=sf-edit]")).as("a viewer has no Edit").isZero();
            page.assertNoConsoleErrors();
        } finally {
            try {
                if (page != null) {
                    page.close();
                }
            } finally {
                try {
                    own.lifecycle().stopAll(Duration.ofSeconds(30));
                } finally {
                    data.close();
                }
            }
        }
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

    @AfterEach
    void signOutAndCheckTheConsole() {
        if (browser.count("#sign-out") > 0 && browser.driver().findElement(By.id("sign-out")).isDisplayed()) {
            browser.signOut();
        }
        browser.assertNoConsoleErrors();
    }

    @Test
    void anEngineerWatchesAnOutageDrainThenRetriesOneQuarantinedItemAndDropsAnother() throws Exception {
        browser.open("");
        browser.waitFor("#signin-user");
        browser.screenshot("sign-in");
        browser.signIn(ENGINEER, PASSWORD);
        browser.waitFor("#sf-row-db");

        // outage: values keep coming while PostgreSQL is down; the page shows the backlog growing until
        // the buffer passes its high-water mark, where the feed stops (before the limit, where the SQL
        // channel would refuse new items)
        AtomicLong next = new AtomicLong(1);
        AtomicBoolean full = new AtomicBoolean();
        ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor();
        try {
            gateway.postgres.stop();
            feeder.scheduleWithFixedDelay(() -> {
                // anything thrown here would cancel the schedule silently and the backlog would stop growing
                try {
                    if (full.get()) {
                        return;
                    }
                    if (gateway.pressureAlarm("db")) {
                        full.set(true);
                        return;
                    }
                    gateway.device.setValue(TestVariable.PRESSURE, (double) next.getAndIncrement());
                } catch (Throwable e) {
                    System.err.println("feeder: " + e + "; it feeds again in 100 ms");
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
            long first = Long.parseLong(browser.waitForAttribute("#sf-row-db", "data-items",
                    items -> Long.parseLong(items) > 0, "a backlog in the db channel"));
            // growing, unless the first figure the page showed was already at the high-water mark, where the
            // feed stops
            browser.waitForAttribute("#sf-row-db", "data-items", items -> Long.parseLong(items) > first + 5
                    || (full.get() && Long.parseLong(items) >= first), "the db channel's backlog growing past " + first);
            browser.waitForText("#sf-row-db [data-test=sf-state]", "destination down");
            browser.waitFor("#sf-row-db [data-test=sf-pressure]");
            browser.waitFor("[data-test=sf-alarm-banner]");
            await().atMost(WAIT).untilTrue(full);
            browser.screenshot("store-forward");
        } finally {
            feeder.shutdownNow();
            feeder.awaitTermination(5, TimeUnit.SECONDS);
        }
        long fed = next.get() - 1;
        gateway.postgres.restart();
        browser.waitForAttribute("#sf-row-db", "data-items", "0"::equals, "the db channel drained to 0");
        // the last value fed during the outage arrived once the backlog drained
        await().atMost(WAIT).until(() -> gateway.postgres.queryLong(
                "SELECT count(*) FROM readings WHERE value = " + fed) == 1);

        // two values the CHECK constraint rejects go to quarantine
        gateway.device.setValue(TestVariable.PRESSURE, -1.0);
        await().atMost(WAIT).until(() -> gateway.quarantined("db") == 1);
        gateway.device.setValue(TestVariable.PRESSURE, -2.0);
        await().atMost(WAIT).until(() -> gateway.quarantined("db") == 2);
        browser.waitForText("#sf-quarantine-db", "2");
        browser.click("#sf-quarantine-db");
        browser.until(d -> d.findElements(By.cssSelector("[data-test=q-row]")).size() == 2, "two quarantined rows");
        List<Long> ids = browser.driver().findElements(By.cssSelector("[data-test=q-row]")).stream()
                .map(row -> Long.parseLong(row.getDomAttribute("data-id"))).toList();
        long minusOne = idWithValue(ids, "-1");
        long minusTwo = idWithValue(ids, "-2");
        browser.click("#q-expand-" + minusOne);
        browser.waitFor("#q-detail-" + minusOne + " [data-test=q-preview]");
        browser.click("#q-check-" + minusOne);
        browser.waitForText("#q-selection", "1 selected");
        browser.screenshot("quarantine");

        // the operator fixes the destination and retries one: it arrives
        gateway.postgres.execute("ALTER TABLE readings DROP CONSTRAINT readings_value_check");
        browser.click("#q-retry");
        browser.waitForText("[data-test=q-result-message]", "Retried 1: 1 delivered.");
        browser.until(d -> d.findElements(By.cssSelector("[data-test=q-row]")).size() == 1, "one row left");
        await().atMost(WAIT).until(() -> gateway.postgres.queryLong("SELECT count(*) FROM readings WHERE value = -1") == 1);

        // and drops the other, after confirming; Escape (Cancel has the focus) keeps it
        browser.click("#q-check-" + minusTwo);
        browser.click("#q-drop");
        browser.waitFor("#confirm-dialog[open]");
        assertThat(browser.driver().switchTo().activeElement().getDomAttribute("id")).isEqualTo("confirm-cancel");
        browser.driver().switchTo().activeElement().sendKeys(Keys.ESCAPE);
        browser.waitForAbsent("#confirm-dialog");
        assertThat(gateway.quarantined("db")).as("cancelled: nothing dropped").isEqualTo(1);
        browser.click("#q-drop");
        browser.waitFor("#confirm-dialog[open]");
        assertThat(browser.driver().findElement(By.id("confirm-message")).getText()).contains("Drop 1 item");
        browser.click("#confirm-ok");
        browser.waitForText("[data-test=q-result-message]", "Dropped 1 of 1");
        browser.waitFor("#q-list [data-test=empty]");
        assertThat(gateway.quarantined("db")).isZero();
        assertThat(gateway.postgres.queryLong("SELECT count(*) FROM readings WHERE value = -2")).isZero();

        // both actions are in the audit journal, by this user
        browser.click("#nav-audit");
        browser.type("#audit-user", ENGINEER);
        browser.click("#audit-apply");
        browser.waitFor("[data-test=audit-row][data-action=quarantine_retry][data-user=" + ENGINEER + "]");
        browser.waitFor("[data-test=audit-row][data-action=quarantine_drop][data-user=" + ENGINEER + "]");
        browser.screenshot("audit");
    }

    /** The quarantined item whose preview shows the value (e.g. "-1" but not "-11" or a date's "-1"). */
    private static long idWithValue(List<Long> ids, String value) {
        Pattern exact = Pattern.compile("(?<![0-9])" + Pattern.quote(value) + "(?:\\.0+)?(?![0-9])");
        for (long id : ids) {
            String preview = gateway.read("/api/v1/store-forward/db/quarantine/" + id).path("preview").asText();
            if (exact.matcher(preview).find()) {
                return id;
            }
        }
        throw new AssertionError("no quarantined item shows the value " + value + " in its preview");
    }

    @Test
    void aViewerCanNeitherRetryNorDropInTheConsoleOrThroughTheApi() {
        gateway.device.setValue(TestVariable.INT32, 13);
        await().atMost(WAIT).until(() -> gateway.quarantined("archive") == 1);

        browser.signIn(VIEWER, PASSWORD);
        assertThat(browser.count("#nav-audit")).as("no Audit page without view_audit").isZero();
        assertThat(browser.count("#nav-users")).as("no Users page without manage_users").isZero();
        browser.open("#/store-forward/archive/quarantine");
        WebElement box = browser.waitFor("[data-test=q-check]");
        box.click();
        browser.waitFor("#q-readonly");
        assertThat(browser.driver().findElement(By.id("q-retry")).isEnabled()).as("Retry").isFalse();
        assertThat(browser.driver().findElement(By.id("q-drop")).isEnabled()).as("Drop").isFalse();

        long id = gateway.read("/api/v1/store-forward/archive/quarantine").get("entries").get(0).get("id").asLong();
        String body = "{\"ids\": [" + id + "]}";
        ConsoleClient viewer = ConsoleClient.signedIn(gateway.base, VIEWER, PASSWORD);
        String token = ConsoleTestGateway.json(viewer.post("/api/v1/tokens", "{\"name\": \"viewer-script\"}"),
                "creating a token").get("token").asText();
        ConsoleClient script = ConsoleClient.withToken(gateway.base, token);
        for (ConsoleClient client : List.of(viewer, script)) {
            for (String action : List.of("retry", "drop", "retry-all")) {
                String path = "/api/v1/store-forward/archive/quarantine/" + action.replace("-all", "");
                var answer = client.post(path, action.endsWith("-all") ? "{\"all\": true}" : body);
                assertThat(answer.statusCode()).as(action + ": " + answer.body()).isEqualTo(403);
                assertThat(answer.body()).contains("Edit connections");
            }
        }
        assertThat(gateway.quarantined("archive")).as("still quarantined").isEqualTo(1);

        // an administrator disables the viewer: the open console ends the session and asks to sign in
        assertThat(gateway.admin.put("/api/v1/users/" + VIEWER, "{\"disabled\": true}").statusCode()).isEqualTo(200);
        browser.waitFor("#signin-user");
        browser.waitForText("#signin-message", "session has ended");
        assertThat(gateway.admin.put("/api/v1/users/" + VIEWER, "{\"disabled\": false}").statusCode()).isEqualTo(200);
    }

    @Test
    void everyPageRendersForAnAdministratorWithoutErrors() throws Exception {
        // the pressure follows a curve during the whole test: history for the trend, and live values
        AtomicLong step = new AtomicLong();
        ScheduledExecutorService curve = Executors.newSingleThreadScheduledExecutor();
        curve.scheduleAtFixedRate(() -> gateway.device.setValue(TestVariable.PRESSURE,
                50 + 10 * Math.sin(step.getAndIncrement() / 15.0)), 0, 100, TimeUnit.MILLISECONDS);
        try {
            browser.signIn(ADMIN, ADMIN_PASSWORD);

            browser.open("#/connections");
            browser.waitFor("[data-test=device-row][data-id=plc1]");
            browser.waitFor("[data-test=outbound-row][data-id=db]");
            browser.click("#browse-plc1");
            browser.waitFor("#browse-tree .tree-toggle");
            browser.screenshot("connections");

            browser.open("#/tags");
            browser.waitFor("[data-test=tag-row][data-path='plant/pressure']");
            browser.waitFor("[data-test=tag-write]");
            browser.screenshot("tags");

            await().atMost(WAIT).until(() -> step.get() > 120); // twelve seconds of history
            browser.open("#/trends");
            browser.click("[data-test=trend-tag][value='plant/pressure']");
            browser.click("#trend-show");
            browser.waitFor("#trend-chart .uplot canvas");
            // values that arrive while the chart is open are appended to it
            int drawn = Integer.parseInt(browser.waitFor("#trend-chart").getDomAttribute("data-points"));
            browser.waitForAttribute("#trend-chart", "data-points", points -> Integer.parseInt(points) > drawn + 3,
                    "live values appended to the chart");
            browser.screenshot("trends");
        } finally {
            curve.shutdownNow();
            curve.awaitTermination(5, TimeUnit.SECONDS);
        }

        browser.open("#/users");
        browser.waitFor("[data-test=user-row][data-name=" + VIEWER + "]");
        browser.screenshot("users");

        browser.open("#/audit");
        browser.waitFor("[data-test=audit-row]");
        browser.open("#/data-integrity");
        browser.waitFor("[data-test=losses-verdict]");
        browser.screenshot("data-integrity");
        browser.open("#/account");
        browser.waitFor("#token-form");
    }

    @Test
    void anAdministratorDisablesAndEnablesAPipelineAndSeesTheHistorianTablesAndTheAlarms() {
        browser.signIn(ADMIN, ADMIN_PASSWORD);
        browser.open("#/connections");
        browser.waitFor("[data-test=pipeline-row][data-id=pressures][data-enabled=true]");
        browser.waitFor("[data-test=pipeline-row][data-id=levels][data-enabled=true]");

        // Disable then Enable: the row shows the answered pipeline at once, and the gateway agrees
        browser.click("#pipeline-disable-levels");
        browser.waitFor("[data-test=pipeline-row][data-id=levels][data-enabled=false]");
        browser.waitForText("#pipeline-message", "levels is disabled");
        assertThat(gateway.read("/api/v1/pipelines/levels").get("enabled").asBoolean()).as("disabled").isFalse();
        browser.waitFor("#pipeline-disable-levels:disabled"); // found again if the list re-renders meanwhile
        browser.click("#pipeline-enable-levels");
        browser.waitFor("[data-test=pipeline-row][data-id=levels][data-enabled=true]");
        browser.waitForText("#pipeline-message", "levels is enabled");
        assertThat(gateway.read("/api/v1/pipelines/levels").get("enabled").asBoolean()).as("enabled again").isTrue();
        assertThat(gateway.read("/api/v1/pipelines/pressures").get("enabled").asBoolean()).as("untouched").isTrue();

        // the WAL section lists every table the historian writes
        List<String> tables = new java.util.ArrayList<>();
        gateway.read("/api/v1/historian/wal").forEach(table -> tables.add(table.get("table").asText()));
        assertThat(tables).as("the historian's tables").isNotEmpty();
        browser.until(d -> d.findElements(By.cssSelector("[data-test=wal-row]")).size() == tables.size(),
                tables.size() + " WAL rows");
        for (String table : tables) {
            browser.waitFor("[data-test=wal-row][data-table='" + table + "']");
        }

        // the alarms panel shows as many active alarms as the API
        browser.open("#/store-forward");
        browser.waitFor("#sf-row-db");
        browser.waitFor("#alarms-panel #alarms-title");
        browser.until(d -> {
            int active = gateway.read("/api/v1/alarms").get("active").size();
            String shown = d.findElement(By.id("alarms")).getDomAttribute("data-count");
            boolean rendered = active == 0 ? !d.findElements(By.cssSelector("#alarms [data-test=empty]")).isEmpty()
                    : d.findElements(By.cssSelector("#alarms [data-test=alarm-row]")).size() == active;
            return String.valueOf(active).equals(shown) && rendered;
        }, "the active alarms in the alarms panel");
    }
}
