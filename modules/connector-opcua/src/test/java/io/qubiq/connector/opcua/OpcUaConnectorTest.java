package io.qubiq.connector.opcua;

import io.qubiq.core.connector.BrowseNode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.connector.TagWriteResult;
import io.qubiq.core.connector.WriteLimitException;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.error.TransientException;
import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.tag.DataType;
import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.testkit.opcua.OpcUaServerExtension;
import io.qubiq.testkit.opcua.TestOpcUaServer;
import io.qubiq.testkit.opcua.TestVariable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(OpcUaServerExtension.class)
class OpcUaConnectorTest {

    static final Duration WAIT = Duration.ofSeconds(15);

    private final TestOpcUaServer server;
    private final List<OpcUaConnector> connectors = new ArrayList<>();

    OpcUaConnectorTest(TestOpcUaServer server) {
        this.server = server;
    }

    @AfterEach
    void closeConnectors() {
        connectors.forEach(OpcUaConnector::close);
    }

    static String pathOf(TestVariable variable) {
        return "plant/" + variable.id().toLowerCase(Locale.ROOT);
    }

    private OpcUaConnectionConfig configFor(String endpoint, boolean setpointWritable) {
        List<OpcUaTagConfig> tags = new ArrayList<>();
        for (TestVariable variable : TestVariable.values()) {
            boolean writable = variable == TestVariable.SETPOINT && setpointWritable;
            tags.add(new OpcUaTagConfig(pathOf(variable), server.nodeId(variable), 50, 1, Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), writable));
        }
        // The setpoint again, as a tag the configuration does not allow to write.
        tags.add(new OpcUaTagConfig("plant/setpoint_readonly", server.nodeId(TestVariable.SETPOINT), 50, 1,
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false));
        return OpcUaConnectionConfig.of(endpoint, tags).withPublishingIntervalMs(100).withReconnect(100, 1000)
                .withRequestTimeoutMs(3000);
    }

    private OpcUaConnector start(OpcUaConnectionConfig config, RecordingPublisher publisher) {
        OpcUaConnector connector = new OpcUaConnector("plc1", config);
        connectors.add(connector);
        connector.start(publisher);
        return connector;
    }

    private OpcUaConnector startConnected(RecordingPublisher publisher) {
        OpcUaConnector connector = start(configFor(server.endpointUrl(), true), publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        return connector;
    }

    private static TagValue awaitValue(RecordingPublisher publisher, String path,
                                       java.util.function.Predicate<TagValue> condition) {
        return await().atMost(WAIT).until(() -> publisher.latest(path).filter(condition).orElse(null),
                v -> v != null);
    }

    @Test
    void valuesOfEveryDataTypeArriveWithTheirTypeGoodQualityAndTimestamps() {
        RecordingPublisher publisher = new RecordingPublisher();
        Instant before = Instant.now();
        server.setValue(TestVariable.DOUBLE, 21.25);
        startConnected(publisher);

        assertThat(awaitValue(publisher, pathOf(TestVariable.BOOLEAN), v -> v.quality().isGood()).value()).isEqualTo(true);
        assertThat(awaitValue(publisher, pathOf(TestVariable.INT32), v -> v.quality().isGood()).value()).isEqualTo(42);
        assertThat(awaitValue(publisher, pathOf(TestVariable.INT64), v -> v.quality().isGood()).value())
                .isEqualTo(9_000_000_000L);
        assertThat(awaitValue(publisher, pathOf(TestVariable.FLOAT), v -> v.quality().isGood()).value()).isEqualTo(1.5f);
        assertThat(awaitValue(publisher, pathOf(TestVariable.STRING), v -> v.quality().isGood()).value())
                .isEqualTo("running");
        assertThat(awaitValue(publisher, pathOf(TestVariable.DATETIME), v -> v.quality().isGood()).value())
                .isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
        TagValue widened = awaitValue(publisher, pathOf(TestVariable.UINT16), v -> v.quality().isGood());
        assertThat(widened.type()).isEqualTo(DataType.INT32);
        assertThat(widened.value()).isEqualTo(7);

        TagValue temperature = awaitValue(publisher, pathOf(TestVariable.DOUBLE), v -> v.quality().isGood());
        assertThat(temperature.type()).isEqualTo(DataType.FLOAT64);
        assertThat(temperature.value()).isEqualTo(21.25);
        assertThat(temperature.quality()).isEqualTo(Quality.GOOD);
        assertThat(temperature.sourceTime()).isBetween(before.minusSeconds(1), Instant.now());
        assertThat(temperature.serverTime()).isBetween(before.minusSeconds(1), Instant.now());

        server.setValue(TestVariable.DOUBLE, 22.5);
        awaitValue(publisher, pathOf(TestVariable.DOUBLE), v -> Double.valueOf(22.5).equals(v.value()));
    }

    /**
     * Would catch changes a server dropped from a full monitored-item queue passing unnoticed: the
     * value after the gap carries the Overflow bit, and nothing but the quality column said so.
     */
    @Test
    void aValueTheServerFlaggedOverflowIsReportedAsALossNamingItsTag() {
        RecordingPublisher publisher = new RecordingPublisher();
        io.qubiq.testkit.RecordingEvents events = new io.qubiq.testkit.RecordingEvents();
        OpcUaConnector connector = new OpcUaConnector("plc1", configFor(server.endpointUrl(), true),
                java.time.Clock.systemUTC(), events);
        connectors.add(connector);
        connector.start(publisher);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> v.quality().isGood());

        long goodWithOverflow = 0x00000480L; // info type DataValue, Overflow bit
        server.setValue(TestVariable.PRESSURE, 5.0, goodWithOverflow);

        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> Double.valueOf(5.0).equals(v.value()));
        await().atMost(WAIT).until(() -> !events.losses().isEmpty());
        assertThat(events.losses()).singleElement().satisfies(loss -> {
            assertThat(loss.reason()).isEqualTo(io.qubiq.core.event.LossReason.DEVICE_QUEUE_OVERFLOW);
            assertThat(loss.items()).isEqualTo(1);
            assertThat(loss.detail()).contains("plant/pressure", "queue_size");
        });
        assertThat(connector.counters()).containsEntry("values_flagged_overflow", 1L);
        server.setValue(TestVariable.PRESSURE, 6.0, 0);
    }

    @Test
    void badStatusCodeFromTheServerBecomesTheTagsQuality() {
        RecordingPublisher publisher = new RecordingPublisher();
        startConnected(publisher);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> v.quality().isGood());

        long badSensorFailure = 0x808C0000L;
        server.setValue(TestVariable.PRESSURE, 3.0, badSensorFailure);

        TagValue bad = awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> v.quality().isBad());
        assertThat(bad.quality()).isEqualTo(Quality.BAD_SENSOR_FAILURE);

        server.setValue(TestVariable.PRESSURE, 4.0, 0);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> v.quality().isGood() && Double.valueOf(4.0).equals(v.value()));
    }

    @Test
    void stoppedServerTurnsTagsBadNotConnectedAndTheRestartedServerDeliversValuesAgain() {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnector connector = startConnected(publisher);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> v.quality().isGood());

        server.stop();

        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
        assertThat(connector.status().lastError()).isPresent();
        for (TestVariable variable : TestVariable.values()) {
            TagValue down = awaitValue(publisher, pathOf(variable), v -> v.quality().equals(Quality.BAD_NOT_CONNECTED));
            assertThat(down.value()).isNull();
        }

        server.setValue(TestVariable.PRESSURE, 7.5, 0);
        server.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> connector.status().state() == ConnectionState.UP);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> v.quality().isGood() && Double.valueOf(7.5).equals(v.value()));
        server.setValue(TestVariable.PRESSURE, 8.5, 0);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> Double.valueOf(8.5).equals(v.value()));
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(connector.stats().reconnects()).isGreaterThanOrEqualTo(1);
            assertThat(connector.stats().subscriptionsRecreated()).isGreaterThanOrEqualTo(1);
        });
        assertThat(connector.status().lastError()).as("the last error is kept after recovery").isPresent();
    }

    @Test
    void goodValueThatStopsChangingIsMarkedUncertainLastUsableValue() {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnector connector = start(configFor(server.endpointUrl(), true).withStaleAfterMs(600), publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        server.setValue(TestVariable.PRESSURE, 11.0, 0);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> Double.valueOf(11.0).equals(v.value()));

        TagValue stale = awaitValue(publisher, pathOf(TestVariable.PRESSURE),
                v -> v.quality().equals(Quality.UNCERTAIN_LAST_USABLE_VALUE));
        assertThat(stale.value()).isEqualTo(11.0);

        server.setValue(TestVariable.PRESSURE, 12.0, 0);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> v.quality().isGood() && Double.valueOf(12.0).equals(v.value()));
    }

    @Test
    void pollingModeReadsEveryTagOnTheInterval() {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnector connector = start(configFor(server.endpointUrl(), true).withPolling(100), publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        assertThat(awaitValue(publisher, pathOf(TestVariable.INT32), v -> v.quality().isGood()).value()).isEqualTo(42);

        server.setValue(TestVariable.PRESSURE, 99.0, 0);
        awaitValue(publisher, pathOf(TestVariable.PRESSURE), v -> Double.valueOf(99.0).equals(v.value()));
        long before = connector.stats().valuesReceived();
        await().atMost(WAIT).until(() -> connector.stats().valuesReceived() >= before + 2L * TestVariable.values().length);
        assertThat(connector.grantedItems()).as("polling creates no monitored items").isEmpty();
    }

    @Test
    void writeToAWritableTagChangesTheServersValueAndReturnsGood() throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnector connector = startConnected(publisher);

        TagWriteResult result = connector.write(TagPath.of(pathOf(TestVariable.SETPOINT)), 64.5).get(10, TimeUnit.SECONDS);

        assertThat(result.accepted()).isTrue();
        assertThat(result.status()).isEqualTo(Quality.GOOD);
        assertThat(server.value(TestVariable.SETPOINT)).isEqualTo(64.5);
        awaitValue(publisher, pathOf(TestVariable.SETPOINT), v -> Double.valueOf(64.5).equals(v.value()));
    }

    @Test
    void writeOfAValueTheDeviceRefusesCompletesWithTheDevicesBadCode() throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnectionConfig config = configFor(server.endpointUrl(), true);
        List<OpcUaTagConfig> tags = new ArrayList<>(config.tags());
        tags.add(new OpcUaTagConfig("plant/int32_writable", server.nodeId(TestVariable.INT32), 50, 1, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), true));
        OpcUaConnector connector = start(new OpcUaConnectionConfig(config.endpointUrl(), config.securityPolicy(),
                config.securityMode(), config.identity(), config.pkiDir(), config.requestTimeoutMs(),
                config.sessionTimeoutMs(), config.reconnectInitialMs(), config.reconnectMaxMs(), 0, config.mode(),
                config.pollingIntervalMs(), config.publishingIntervalMs(), config.maxItemsPerSubscription(), config.tagDefaults(), tags),
                publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);

        TagWriteResult result = connector.write(TagPath.of("plant/int32_writable"), 5).get(10, TimeUnit.SECONDS);

        assertThat(result.accepted()).isFalse();
        assertThat(result.status().isBad()).isTrue();
        assertThat(result.message()).contains("rejected");
        assertThat(server.value(TestVariable.INT32)).isEqualTo(42);
    }

    @Test
    void writeToATagNotConfiguredWritableIsRejectedWithoutReachingTheServer() {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnector connector = startConnected(publisher);
        long writesBefore = TestOpcUaServer.clientWrites();

        var future = connector.write(TagPath.of("plant/setpoint_readonly"), 10.0);

        assertThat(future).isCompletedExceptionally();
        assertThat(failureOf(future)).isInstanceOf(PermanentException.class).hasMessageContaining("not writable");
        assertThat(TestOpcUaServer.clientWrites()).isEqualTo(writesBefore);
        assertThat(server.value(TestVariable.SETPOINT)).isNotEqualTo(10.0);
    }

    @Test
    void writeOutsideTheTagsWriteLimitsOrNotANumberIsRefusedWithoutReachingTheServer() throws Exception {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnectionConfig config = configFor(server.endpointUrl(), true);
        List<OpcUaTagConfig> tags = new ArrayList<>(config.tags());
        tags.add(OpcUaTagConfig.of("plant/setpoint_limited", server.nodeId(TestVariable.SETPOINT))
                .withWriteLimits(0, 100));
        OpcUaConnector connector = start(new OpcUaConnectionConfig(config.endpointUrl(), config.securityPolicy(),
                config.securityMode(), config.identity(), config.pkiDir(), config.requestTimeoutMs(),
                config.sessionTimeoutMs(), config.reconnectInitialMs(), config.reconnectMaxMs(), 0, config.mode(),
                config.pollingIntervalMs(), config.publishingIntervalMs(), config.maxItemsPerSubscription(),
                config.tagDefaults(), tags), publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
        long writesBefore = TestOpcUaServer.clientWrites();

        var above = connector.write(TagPath.of("plant/setpoint_limited"), 150.5);
        var text = connector.write(TagPath.of("plant/setpoint_limited"), "hot");

        assertThat(failureOf(above)).isInstanceOf(WriteLimitException.class).hasMessageContaining("plant/setpoint_limited")
                .hasMessageContaining("150.5").hasMessageContaining("min 0").hasMessageContaining("max 100");
        assertThat(failureOf(text)).isInstanceOf(WriteLimitException.class).hasMessageContaining("not a number");
        assertThat(TestOpcUaServer.clientWrites()).as("nothing reached the server").isEqualTo(writesBefore);
        TagWriteResult inside = connector.write(TagPath.of("plant/setpoint_limited"), 99.5).get(10, TimeUnit.SECONDS);
        assertThat(inside.accepted()).isTrue();
        assertThat(server.value(TestVariable.SETPOINT)).isEqualTo(99.5);
    }

    @Test
    void writeWhileDisconnectedFailsAtOnceAndIsNeverBuffered() {
        RecordingPublisher publisher = new RecordingPublisher();
        TestOpcUaServer nobody = TestOpcUaServer.onFreePort();
        OpcUaConnector connector = start(configFor(nobody.endpointUrl(), true), publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
        awaitValue(publisher, pathOf(TestVariable.SETPOINT), v -> v.quality().equals(Quality.BAD_NOT_CONNECTED));

        var future = connector.write(TagPath.of(pathOf(TestVariable.SETPOINT)), 10.0);

        assertThat(future).isCompletedExceptionally();
        assertThat(failureOf(future)).isInstanceOf(TransientException.class).hasMessageContaining("never buffered");
        assertThat(connector.stats().errors()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void connectorRetriesUntilAServerThatWasDownAtStartComesUp() {
        RecordingPublisher publisher = new RecordingPublisher();
        TestOpcUaServer late = TestOpcUaServer.onFreePort();
        try {
            OpcUaConnector connector = start(configFor(late.endpointUrl(), true), publisher);
            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.DOWN);
            late.start();
            await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);
            awaitValue(publisher, pathOf(TestVariable.INT32), v -> v.quality().isGood());
        } finally {
            late.stop();
        }
    }

    @Test
    void browseListsTheChildrenOfAFolderWithTheDataTypeOfVariables() throws Exception {
        OpcUaConnector connector = startConnected(new RecordingPublisher());

        List<BrowseNode> objects = connector.browse("i=85").get(10, TimeUnit.SECONDS);
        assertThat(objects).extracting(BrowseNode::nodeId).contains(server.folderNodeId());

        List<BrowseNode> plant = connector.browse(server.folderNodeId()).get(10, TimeUnit.SECONDS);
        assertThat(plant).extracting(BrowseNode::displayName)
                .containsAll(java.util.Arrays.stream(TestVariable.values()).map(TestVariable::id).toList());
        BrowseNode dbl = plant.stream().filter(e -> e.displayName().equals("Double")).findFirst().orElseThrow();
        assertThat(dbl.nodeId()).isEqualTo(server.nodeId(TestVariable.DOUBLE));
        assertThat(dbl.nodeClass()).isEqualTo("Variable");
        assertThat(dbl.dataType()).contains("Double");
        assertThat(dbl.browseName()).endsWith("Double");
    }

    @Test
    void tagsAreSpreadOverSubscriptionsAndARefusedNodeGetsTheServersBadCode() {
        RecordingPublisher publisher = new RecordingPublisher();
        OpcUaConnectionConfig base = configFor(server.endpointUrl(), true).withMaxItemsPerSubscription(3);
        List<OpcUaTagConfig> tags = new ArrayList<>(base.tags());
        tags.add(new OpcUaTagConfig("plant/missing", "ns=2;s=NoSuchNode", 50, 1, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), false));
        OpcUaConnector connector = start(new OpcUaConnectionConfig(base.endpointUrl(), base.securityPolicy(),
                base.securityMode(), base.identity(), base.pkiDir(), base.requestTimeoutMs(), base.sessionTimeoutMs(),
                base.reconnectInitialMs(), base.reconnectMaxMs(), 0, base.mode(), base.pollingIntervalMs(),
                base.publishingIntervalMs(), 3, base.tagDefaults(), tags), publisher);
        await().atMost(WAIT).until(() -> connector.status().state() == ConnectionState.UP);

        TagValue missing = awaitValue(publisher, "plant/missing", v -> v.quality().isBad());
        assertThat(missing.quality().label()).isEqualTo("Bad(0x80340000)");
        await().atMost(WAIT).untilAsserted(() -> {
            var granted = connector.grantedItems();
            assertThat(granted).hasSize(tags.size());
            assertThat(granted.get(TagPath.of(pathOf(TestVariable.INT32))).status().isGood()).isTrue();
            assertThat(granted.get(TagPath.of(pathOf(TestVariable.INT32))).samplingIntervalMs()).isPresent();
            assertThat(granted.get(TagPath.of("plant/missing")).status().isBad()).isTrue();
        });
        assertThat(connector.stats().errors()).isGreaterThanOrEqualTo(1);
        assertThat(awaitValue(publisher, pathOf(TestVariable.SETPOINT), v -> v.quality().isGood())).isNotNull();
    }

    private static Throwable failureOf(java.util.concurrent.CompletableFuture<?> future) {
        try {
            future.get(1, TimeUnit.SECONDS);
            throw new AssertionError("expected the future to fail");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
