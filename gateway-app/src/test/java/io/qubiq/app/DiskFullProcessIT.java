package io.qubiq.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.qubiq.fileops.smalldisk.SmallDisk;
import io.qubiq.testkit.http.ConsoleClient;
import io.qubiq.testkit.mqtt.TestMqttBroker;
import io.qubiq.testkit.postgres.PostgresServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged gateway on a really full file system (issue 18, G4): its data directory is a 24 MiB
 * tmpfs mounted by the test, the destination a real PostgreSQL, the device a real MQTT broker. While
 * the destination is down and values flow, the test fills the file system from outside with a file
 * of its own until the kernel answers "No space left on device", then deletes it. Twice: with the
 * critical reserve (the channel stops growing before the disk refuses it anything), and without it
 * ({@code critical_free: "0%"}: the buffer meets ENOSPC itself when it needs a new segment).
 *
 * <p>What it would catch: a full disk that damages a buffer (a torn segment, a {@code buffer_damaged}
 * loss after space returns), a write failure that escapes as a stack trace or stops the gateway, items
 * lost without a {@code disk_full} ledger entry, a channel that does not resume once space is back, and
 * a backlog that does not drain exactly and in order.
 *
 * <p>Mounting needs root (CI and the development container run tests as root); elsewhere, or where the
 * mount is not permitted, the class is skipped with an assumption that says so. Only the mount this
 * class made is unmounted.
 */
class DiskFullProcessIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String PASSWORD = "disk-full-test-password";
    private static final long FS_BYTES = 24L * 1024 * 1024;

    @TempDir
    static Path servers;

    static PostgresServer postgres;
    static TestMqttBroker broker;
    static SmallDisk disk;
    static Path mount;

    @TempDir
    Path work;

    private GatewayProcess gateway;
    private Mqtt5BlockingClient device;
    private ConsoleClient console;
    private int port;

    @BeforeAll
    static void mountSmallFileSystemAndStartServers() throws Exception {
        disk = SmallDisk.mount(servers.resolve("disk"), (int) (FS_BYTES >> 20));
        Assumptions.assumeTrue(disk.mounted(), () -> "DiskFullProcessIT needs to mount a 24 MiB tmpfs as the"
                + " gateway's data directory (root with CAP_SYS_ADMIN); skipped: " + disk.whyNot());
        mount = disk.path();
        postgres = PostgresServer.start(servers.resolve("postgres"));
        broker = TestMqttBroker.onFreePort().start();
    }

    @AfterAll
    static void stopServersAndUnmount() throws Exception {
        if (broker != null) {
            broker.stop();
        }
        if (postgres != null) {
            postgres.close();
        }
        if (disk != null) {
            disk.close();
        }
    }

    @AfterEach
    void stopGateway() throws IOException {
        if (device != null && device.getState().isConnected()) {
            device.disconnect();
        }
        if (gateway != null) {
            gateway.close();
            // the gateway's own account, for a failure in CI: its last lines
            List<String> lines = gateway.output().lines().toList();
            System.out.println("DiskFullProcessIT: the gateway's last output lines:");
            lines.subList(Math.max(0, lines.size() - 80), lines.size()).forEach(System.out::println);
        }
        Files.deleteIfExists(filler());
        deleteTree(mount.resolve("state")); // each test starts with an empty data directory
        if (!postgres.isRunning()) {
            postgres.restart();
        }
    }

    /** Where the time goes, in the test's output: this runs in CI. */
    private static void phase(String what, long sinceNanos) {
        System.out.printf("DiskFullProcessIT: %s after %.1f s%n", what, (System.nanoTime() - sinceNanos) / 1e9);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private Path filler() {
        return mount.resolve("filler.bin");
    }

    /** @param criticalFree {@code disk.critical_free}: "0%" turns the critical reserve off */
    private Path config(String criticalFree) throws IOException {
        postgres.execute("DROP TABLE IF EXISTS disk_counts");
        postgres.execute("CREATE TABLE disk_counts (id bigserial PRIMARY KEY, item_id text UNIQUE, count bigint)");
        Path file = work.resolve("gateway.yaml");
        // small segments everywhere: the whole data directory must fit in 24 MiB with room to fill
        Files.writeString(file, """
                gateway: {name: disk full}
                http: {bind_address: 127.0.0.1, port: 0}
                auth: {admin_password: "%s"}
                logging: {file_enabled: false}
                disk: {warning_free: "10%%", critical_free: "%s", check_interval_ms: 200}
                audit:
                  segment_bytes: 262144
                  store_and_forward: {segment_bytes: 262144, max_bytes: 2097152}
                devices:
                  line:
                    mqtt:
                      host: 127.0.0.1
                      port: %d
                      subscriptions:
                        - {topic: line/count, tag: line/count, data_type: int64}
                outbound:
                  db:
                    sql: {jdbc_url: "%s", username: postgres, idempotent: true, connection_timeout_ms: 1000}
                    store_and_forward: {max_bytes: 4194304, segment_bytes: 131072, overflow_policy: refuse,
                                        backoff_max_ms: 1000}
                pipelines:
                  counts:
                    trigger: {tags: ["line/count"]}
                    outputs:
                      - connection: db
                        sql:
                          statement: "INSERT INTO disk_counts (item_id, count) VALUES (:item_id, :count) ON CONFLICT (item_id) DO NOTHING"
                          parameters: {count: "value"}
                """.formatted(PASSWORD, criticalFree, broker.port(), postgres.jdbcUrl()), StandardCharsets.UTF_8);
        return file;
    }

    private void startGateway(Path config) throws Exception {
        port = GatewayProcess.freePort();
        gateway = GatewayProcess.start(work, "run", "--config", config.toString(), "--data-dir",
                mount.resolve("state").toString(), "--http-port", String.valueOf(port));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    assertThat(gateway.isAlive()).as("gateway alive; output:\n%s", gateway.output()).isTrue();
                    return gateway.get(port, "/health").statusCode() == 200;
                });
        // signed in once, before the disk fills: the session lives in memory
        console = ConsoleClient.signedIn("http://127.0.0.1:" + port, "admin", PASSWORD);
        await().atMost(WAIT).until(() -> console.get("/api/v1/connections/line").body().contains("\"state\":\"UP\""));
    }

    private Mqtt5BlockingClient device() {
        if (device == null) {
            device = MqttClient.builder().useMqttVersion5().identifier("disk-full-device")
                    .serverHost(broker.host()).serverPort(broker.port()).buildBlocking();
        }
        if (!device.getState().isConnected()) {
            device.connect();
        }
        return device;
    }

    private void publish(long from, long to) {
        for (long value = from; value <= to; value++) {
            device().publishWith().topic("line/count").qos(MqttQos.AT_LEAST_ONCE)
                    .payload(Long.toString(value).getBytes(StandardCharsets.UTF_8)).send();
        }
    }

    private static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\":(-?[0-9.]+)").matcher(json);
        assertThat(m.find()).as("%s in %s", field, json).isTrue();
        return (long) Double.parseDouble(m.group(1));
    }

    private String channel() {
        return console.get("/api/v1/store-forward/db").body();
    }

    /** The {@code active} list of {@code GET /api/v1/alarms} (its {@code recent} list keeps cleared ones). */
    private String activeAlarms() {
        String body = console.get("/api/v1/alarms").body();
        int active = body.indexOf("\"active\":[");
        int recent = body.indexOf("\"recent\":[");
        assertThat(active).as(body).isNotNegative();
        return recent > active ? body.substring(active, recent) : body.substring(active);
    }

    /** Items lost as disk_full at the channel db, by the loss ledger. */
    private long diskFullLosses() {
        return number(console.get("/api/v1/losses?connection=db&reason=disk_full").body(), "totalItems");
    }

    private String pipeline() {
        return console.get("/api/v1/pipelines/counts").body();
    }

    /** Writes one file until the kernel says the file system is full; returns its size. */
    private long fillTheFileSystem() throws IOException {
        long written = disk.fill(filler());
        assertThat(disk.usable()).as("free bytes after filling").isLessThan(256 * 1024);
        return written;
    }

    private List<Long> rows() {
        return postgres.query("SELECT count FROM disk_counts ORDER BY id").stream()
                .map(row -> ((Number) row.get(0)).longValue()).toList();
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    @Test
    void aFullDiskRefusesNewItemsAsDiskFullDamagesNothingAndTheBacklogDrainsExactlyOnceSpaceReturns()
            throws Exception {
        // the critical reserve (5 %): the channel stops growing before the disk refuses it a write
        fillWhileValuesFlow("5%", "Disk almost full", 1000, true);
    }

    @Test
    void aWriteTheFullDiskRefusesIsADiskFullLossAndLeavesTheBufferWhole() throws Exception {
        // no critical reserve ("0%"): the buffer meets the kernel's ENOSPC when it needs a new segment
        fillWhileValuesFlow("0%", "Disk space low", 2000, false);
    }

    /**
     * Delivers 1..50, stops PostgreSQL, buffers 51..400, fills the file system, publishes
     * {@code duringFull} more values (the buffer takes what fits, the rest is refused as disk_full),
     * deletes the filler, publishes 100 more and restarts PostgreSQL: every value the gateway took
     * arrives once, in order, and nothing is damaged.
     */
    private void fillWhileValuesFlow(String criticalFree, String alarmText, int duringFull, boolean exactRefusals)
            throws Exception {
        long began = System.nanoTime();
        startGateway(config(criticalFree));
        phase("gateway started", began);
        publish(1, 50);
        await().atMost(WAIT).until(() -> postgres.queryLong("SELECT count(*) FROM disk_counts") == 50);

        // destination down, values flowing: a backlog builds on the small disk
        postgres.stop();
        publish(51, 400);
        await().atMost(WAIT).until(() -> number(channel(), "bufferedItems") == 350);

        phase("backlog of 350 on disk", began);
        assertThat(fillTheFileSystem()).isPositive();
        // the watcher raises the disk alarm, naming the data directory
        await().atMost(WAIT).untilAsserted(() -> assertThat(activeAlarms())
                .contains("disk-space/" + mount).contains(alarmText));

        // values that arrive now go where space is already allocated (the rest of the current segment,
        // and the one prepared ahead when there is no critical reserve); the rest is refused
        // (overflow_policy refuse) and told to the ledger as disk_full
        phase("disk alarm raised", began);
        long last = 400 + duringFull;
        publish(401, last);
        // every value is either taken (itemsIn) or lost, and the ledger says exactly how many were lost
        await().atMost(WAIT).until(() -> number(pipeline(), "events") == last
                && diskFullLosses() == duringFull - (number(channel(), "itemsIn") - 400));
        long taken = number(channel(), "itemsIn") - 400;
        long lost = duringFull - taken;
        assertThat(lost).as("lost while the disk is full").isPositive();
        assertThat(number(channel(), "bufferedItems")).isEqualTo(350 + taken);
        long refused = number(pipeline(), "refused");
        if (exactRefusals) {
            assertThat(refused).isEqualTo(lost);
        } else {
            // a batch cut short by the full disk keeps its first items but is refused to the producer whole
            assertThat(refused).isGreaterThanOrEqualTo(lost);
        }
        assertThat(gateway.isAlive()).isTrue();
        assertThat(gateway.get(port, "/health").statusCode()).isEqualTo(200);

        phase("refusals in the ledger", began);
        // space returns: the alarm clears, the channel takes items again
        Files.delete(filler());
        await().atMost(WAIT).untilAsserted(() -> assertThat(activeAlarms())
                .doesNotContain("disk-space/" + mount));
        publish(last + 1, last + 100);
        await().atMost(WAIT).until(() -> number(channel(), "bufferedItems") == 350 + taken + 100);

        phase("space back, 100 more buffered", began);
        postgres.restart();
        phase("PostgreSQL restarted", began);
        long expected = 400 + taken + 100;
        await().atMost(WAIT).until(() -> postgres.queryLong("SELECT count(*) FROM disk_counts") == expected);
        // which values were taken while the disk was full depends on how the pipeline batched them (a batch
        // that does not fit is refused whole, a smaller one after it may fit): every one taken arrives once,
        // in order, and so does everything before and after
        List<Long> rows = rows();
        assertThat(rows).hasSize((int) expected).isSorted().doesNotHaveDuplicates()
                .containsAll(range(1, 400)).containsAll(range(last + 1, last + 100))
                .allSatisfy(value -> assertThat(value).isBetween(1L, last + 100));
        await().atMost(WAIT).until(() -> number(channel(), "bufferedItems") == 0);

        phase("drained", began);
        String losses = console.get("/api/v1/losses").body();
        assertThat(losses).contains("\"reason\":\"disk_full\"")
                .doesNotContain("buffer_damaged", "quarantine_damaged", "\"reason\":\"refused\"");
        String output = gateway.output();
        assertThat(output).as("no stack trace: a full disk is an expected condition, not a bug")
                .doesNotContainPattern("\\n\\s+at [a-z]+\\.");
        assertThat(output).doesNotContain("Exception in thread");
        assertThat(gateway.isAlive()).isTrue();
    }
}
