package io.qubiq.app.console;

import static io.qubiq.app.console.ConsoleTestGateway.ENGINEER;
import static io.qubiq.app.console.ConsoleTestGateway.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.qubiq.app.Gateway;
import io.qubiq.app.TestOperators;
import io.qubiq.app.config.ConfigSource;
import io.qubiq.app.config.LoadedConfig;
import io.qubiq.app.outbound.OutboundConnection;
import io.qubiq.app.outbound.OutboundConnections;
import io.qubiq.app.runtime.DataDirectory;
import io.qubiq.core.event.EventPublisher;
import io.qubiq.sink.mqtt.MqttMessage;
import io.qubiq.storeforward.ConnectionMonitor;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.testkit.http.ConsoleClient;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22: a channel's byte limit lowered below its backlog in the Edit dialog of Settings → Store &amp;
 * Forward (Debian's Chromium, a gateway started from a file): the dialog asks what happens to the backlog
 * before anything is sent, Apply without an answer sends nothing, and "drop the oldest" applies the new
 * limit live with the oldest items beyond it on the Data integrity page as {@code max_bytes_shrunk}.
 * The MQTT connection's broker is away, so the backlog stays. Fails on an error in the browser's console.
 */
class ChannelShrinkBrowserTest {

    private static final int ITEMS = 1_500;

    @TempDir
    Path home;

    @SuppressWarnings("unchecked")
    private static void backlog(Path data, String section) throws Exception {
        LoadedConfig config = LoadedConfig.bind("backlog.yaml", "sha256", section, Map.of());
        Clock clock = Clock.systemUTC();
        OutboundConnection<?> mes = OutboundConnections.build(config.config().outbound(), data,
                new ConnectionMonitor(clock), Duration.ofSeconds(5), EventPublisher.none(), clock).get("mes");
        StoreForwardChannel<MqttMessage> channel = (StoreForwardChannel<MqttMessage>) mes.channel();
        channel.start();
        try {
            channel.submit(IntStream.range(0, ITEMS)
                    .mapToObj(i -> MqttMessage.of("line1/counts", "%04d %s".formatted(i, "x".repeat(1_000)), 1, false))
                    .toList());
            await().atMost(Duration.ofSeconds(30)).until(() -> channel.status().bufferedItems() == ITEMS);
        } finally {
            channel.stop();
            mes.sink().close();
        }
    }

    @Test
    void aLimitBelowTheBacklogIsAskedAboutAndDropOldestShowsInTheLossLedger() throws Exception {
        ConsoleBrowser.requireChromium();
        int dead;
        try (ServerSocket socket = new ServerSocket(0)) {
            dead = socket.getLocalPort();
        }
        String outbound = """
                http:
                  port: 0
                outbound:
                  mes:
                    mqtt: {host: 127.0.0.1, port: %d}
                    store_and_forward: {max_bytes: 4194304, segment_bytes: 65536}
                """.formatted(dead);
        backlog(home.resolve("data"), outbound);
        Path file = Files.writeString(home.resolve("gateway.yaml"), TestOperators.AUTH_YAML + """
                gateway: {name: shrink}
                logging:
                  file_enabled: false
                """ + outbound);
        DataDirectory data = DataDirectory.open(home.resolve("data"));
        Gateway gateway = new Gateway(ConfigSource.loadFile(file, Map.of(), data.root()), data, Clock.systemUTC());
        ConsoleBrowser page = null;
        try {
            gateway.lifecycle().startAll();
            ConsoleClient admin = TestOperators.admin(gateway);
            assertThat(admin.post("/api/v1/users", """
                    {"name": "%s", "password": "%s", "roles": ["engineer"]}""".formatted(ENGINEER, PASSWORD))
                    .statusCode()).isIn(200, 201);
            page = ConsoleBrowser.start("http://127.0.0.1:" + gateway.console().port(), home.resolve("chromium"));
            page.signIn(ENGINEER, PASSWORD);
            page.open("#/store-forward");
            page.waitForText("#sf-row-mes", "1,500");
            String fileBefore = Files.readString(file);

            page.click("#sf-edit-mes");
            page.waitFor("#channel-settings");
            page.type("#cs-max_bytes", "1048576");
            page.waitForText("[data-test=cs-shrink-question]", "below the backlog: 1,500 items");
            page.click("#channel-settings [data-test=dialog-submit]");
            page.waitForText("#channel-settings [data-test=dialog-message]", "nothing was sent");
            assertThat(Files.readString(file)).as("nothing written without an answer").isEqualTo(fileBefore);

            page.click("[data-test=cs-on-shrink-drop_oldest]");
            page.click("#channel-settings [data-test=dialog-submit]");
            page.waitForAbsent("#channel-settings");
            page.waitForText("[data-test=sf-settings-outcome]", "Applied live");
            JsonNode status = ConsoleTestGateway.json(admin.get("/api/v1/store-forward/mes"), "mes");
            assertThat(status.path("maxBytes").asLong()).isEqualTo(1_048_576);
            assertThat(status.path("bufferedBytes").asLong()).isLessThanOrEqualTo(1_048_576);
            long dropped = ITEMS - status.path("bufferedItems").asLong();
            assertThat(dropped).isPositive();

            page.open("#/data-integrity");
            String row = "[data-test=loss-row][data-reason=max_bytes_shrunk][data-connection=mes]";
            page.waitFor(row);
            page.waitForText(row, String.format(java.util.Locale.US, "%,d", dropped));
            page.screenshot("max-bytes-shrunk");
            page.assertNoConsoleErrors();
        } finally {
            try {
                if (page != null) {
                    page.close();
                }
            } finally {
                try {
                    gateway.lifecycle().stopAll(Duration.ofSeconds(30));
                } finally {
                    data.close();
                }
            }
        }
    }

    /**
     * Removing an outbound connection whose channel holds a backlog, from Settings → Store & Forward: the
     * dialog asks what happens to the data and sends nothing without an answer; "keep as an orphan" removes the
     * connection from the file and stops it at once, its backlog appears in the orphan table without a
     * restart, and discarding the orphan records every item in the loss ledger. Would catch a removal that
     * drops data without asking, an orphan listed only after a restart, or a discard without a ledger entry.
     */
    @Test
    void removingAConnectionWithABacklogKeepsItAsAnOrphanAtOnceAndItsDiscardShowsInTheLossLedger() throws Exception {
        ConsoleBrowser.requireChromium();
        int dead;
        try (ServerSocket socket = new ServerSocket(0)) {
            dead = socket.getLocalPort();
        }
        String outbound = """
                http:
                  port: 0
                outbound:
                  mes:
                    mqtt: {host: 127.0.0.1, port: %d}
                    store_and_forward: {max_bytes: 4194304, segment_bytes: 65536}
                """.formatted(dead);
        backlog(home.resolve("data"), outbound);
        try (io.qubiq.app.FileGateway running = io.qubiq.app.FileGateway.start(home, """
                gateway: {name: removal}
                logging:
                  file_enabled: false
                """ + outbound); ConsoleBrowser page = ConsoleBrowser.start(running.base(), home.resolve("chromium"))) {
            ConsoleClient admin = TestOperators.admin(running.gateway);
            page.signIn(TestOperators.ADMIN, TestOperators.ADMIN_PASSWORD);
            page.open("#/store-forward");
            page.waitForText("#sf-row-mes", "1,500");
            String fileBefore = Files.readString(running.file);

            page.click("#sf-remove-mes");
            page.waitForText("[data-test=rm-choice]", "1500 buffered");
            page.click("#channel-removal [data-test=dialog-submit]");
            page.waitForText("#channel-removal [data-test=dialog-message]", "Choose what happens");
            assertThat(Files.readString(running.file)).as("nothing written without an answer").isEqualTo(fileBefore);

            page.click("#rm-keep_orphan");
            page.click("#channel-removal [data-test=dialog-submit]");
            page.waitForAbsent("#channel-removal");
            page.waitForText("[data-test=sf-settings-outcome]", "mes removed from the configuration file");
            assertThat(Files.readString(running.file)).doesNotContain("mes:");
            assertThat(admin.get("/api/v1/store-forward/mes").statusCode()).as("stopped at once").isEqualTo(404);
            page.waitForAbsent("#sf-row-mes");
            String orphan = "[data-test=sf-orphan][data-connection=mes]";
            page.waitForText(orphan, "1,500 items");

            page.click(orphan + " [data-test=sf-orphan-discard]");
            page.waitFor("#orphan-discard-dialog");
            page.type("[data-test=sf-orphan-discard-confirm]", "mes");
            page.click("#orphan-discard-dialog [data-test=dialog-submit]");
            page.waitForAbsent("#orphan-discard-dialog");
            page.waitForAbsent(orphan);

            page.open("#/data-integrity");
            String row = "[data-test=loss-row][data-reason=orphan_discarded][data-connection=mes]";
            page.waitForText(row, "1,500");
            page.assertNoConsoleErrors();
        }
    }
}
