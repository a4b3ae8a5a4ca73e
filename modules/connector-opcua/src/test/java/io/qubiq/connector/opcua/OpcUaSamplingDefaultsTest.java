package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.config.ConfigLoader;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The connection defaults against the real Milo test server: a variable that changes every 100 ms
 * keeps its changes on a default configuration (the old defaults, 500 ms sampling and a queue of
 * 1, kept about one in five), a lossy grant is reported, and a compact tag list works end to end.
 */
@ExtendWith(OpcUaServerExtension.class)
class OpcUaSamplingDefaultsTest {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(OpcUaSamplingDefaultsTest.class);
    static final Duration WAIT = Duration.ofSeconds(15);
    static final int CHANGES = 30;
    static final long CHANGE_EVERY_MS = 100;

    private final TestOpcUaServer server;
    private final List<OpcUaConnector> connectors = new ArrayList<>();
    private final ScheduledExecutorService changer = Executors.newSingleThreadScheduledExecutor();

    OpcUaSamplingDefaultsTest(TestOpcUaServer server) {
        this.server = server;
    }

    @AfterEach
    void stop() {
        changer.shutdownNow();
        connectors.forEach(OpcUaConnector::close);
    }

    @Test
    void aTagChangingEvery100msKeepsNearlyAllChangesOnTheDefaultConfiguration() throws Exception {
        OpcUaTagConfig tag = OpcUaTagConfig.of("plant/pressure", server.nodeId(TestVariable.PRESSURE));
        Set<Double> received = receivedOf(OpcUaConnectionConfig.of(server.endpointUrl(), List.of(tag)), "plant/pressure");
        // the server samples every 100 ms as the changes come, so a change may share a sampling period
        // with the next one now and then; the old defaults kept about 6 of 30
        assertThat(received).as("changes received of %d made", CHANGES).hasSizeGreaterThanOrEqualTo(CHANGES * 8 / 10);
    }

    @Test
    void theOldDefaultsLoseMostChangesOfTheSameTag() throws Exception {
        // What the test above would catch: 500 ms sampling and a queue of 1 (the defaults before)
        OpcUaTagConfig tag = new OpcUaTagConfig("plant/pressure", server.nodeId(TestVariable.PRESSURE), 500, 1,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
        Set<Double> received = receivedOf(OpcUaConnectionConfig.of(server.endpointUrl(), List.of(tag)), "plant/pressure");
        assertThat(received).hasSizeLessThan(CHANGES * 8 / 10);
    }

    @Test
    void aGrantThatCannotKeepEveryChangeIsLoggedAndShownInTheConnectionsStatus() {
        OpcUaTagConfig lossy = new OpcUaTagConfig("plant/pressure", server.nodeId(TestVariable.PRESSURE), 100, 1,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false);
        OpcUaTagConfig fine = OpcUaTagConfig.of("plant/double", server.nodeId(TestVariable.DOUBLE));
        OpcUaConnector connector = start(OpcUaConnectionConfig.of(server.endpointUrl(), List.of(lossy, fine)),
                new RecordingPublisher());
        await().atMost(WAIT).until(connector::subscribed);

        assertThat(connector.itemsMissingChanges()).containsOnlyKeys(TagPath.of("plant/pressure"));
        assertThat(connector.counters()).containsEntry("items_missing_changes", 1L);
        assertThat(connector.warnings()).singleElement().asString()
                .startsWith("itemsMissingChanges: 1 item misses changes")
                .contains(server.nodeId(TestVariable.PRESSURE), "queue size 1", "publishing interval 500 ms");
    }

    @Test
    void theDefaultConfigurationReportsNoItemMissingChanges() {
        OpcUaConnector connector = start(OpcUaConnectionConfig.of(server.endpointUrl(),
                List.of(OpcUaTagConfig.of("plant/pressure", server.nodeId(TestVariable.PRESSURE)))),
                new RecordingPublisher());
        await().atMost(WAIT).until(connector::subscribed);
        assertThat(connector.itemsMissingChanges()).isEmpty();
        assertThat(connector.warnings()).isEmpty();
    }

    @Test
    void aCompactTagListOfNodeIdsLoadsAndProducesValues() throws Exception {
        OpcUaConnectionConfig config = ConfigLoader.parse("plc.yaml", """
                endpoint_url: %s
                tags:
                  - %s
                  - %s
                """.formatted(server.endpointUrl(), server.nodeId(TestVariable.INT32), server.nodeId(TestVariable.STRING)),
                OpcUaConnectionConfig.class, Map.of());
        RecordingPublisher publisher = new RecordingPublisher();
        start(config, publisher);
        String int32 = TagPathFromNodeId.derive(server.nodeId(TestVariable.INT32));
        assertThat(int32).isEqualTo("Int32");
        await().atMost(WAIT).until(() -> publisher.latest(int32).map(TagValue::value).orElse(null), v -> v != null);
        assertThat(publisher.latest(int32).orElseThrow().value()).isEqualTo(42);
        await().atMost(WAIT).until(() -> publisher.latest("String").map(TagValue::value).orElse(null),
                "running"::equals);
    }

    /**
     * Starts a connector, waits for its first value, then changes the variable {@value #CHANGES} times
     * every {@value #CHANGE_EVERY_MS} ms and returns the distinct changed values the tag received,
     * once the last change has arrived (or the wait ran out).
     */
    private Set<Double> receivedOf(OpcUaConnectionConfig config, String path) throws InterruptedException {
        server.setValue(TestVariable.PRESSURE, 0.0);
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnector connector = start(config, publisher);
        await().atMost(WAIT).until(() -> connector.subscribed() && publisher.latest(path).isPresent());
        AtomicInteger next = new AtomicInteger(1);
        CountDownLatch done = new CountDownLatch(1);
        changer.scheduleAtFixedRate(() -> {
            int n = next.getAndIncrement();
            if (n <= CHANGES) {
                server.setValue(TestVariable.PRESSURE, (double) n);
            } else {
                done.countDown();
            }
        }, 0, CHANGE_EVERY_MS, TimeUnit.MILLISECONDS);
        assertThat(done.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> publisher.latest(path).map(TagValue::value).orElse(null),
                v -> Double.valueOf(CHANGES).equals(v));
        Set<Double> received = publisher.all().stream().filter(v -> v.path().value().equals(path))
                .map(v -> v.value() instanceof Double d ? d : null)
                .filter(d -> d != null && d >= 1).collect(Collectors.toSet());
        LOG.info("{} of {} changes received with {}", received.size(), CHANGES, config.monitoring(config.tags().get(0)));
        return received;
    }

    private OpcUaConnector start(OpcUaConnectionConfig config, RecordingPublisher publisher) {
        OpcUaConnector connector = new OpcUaConnector("plc1", config);
        connectors.add(connector);
        connector.start(publisher);
        return connector;
    }
}
