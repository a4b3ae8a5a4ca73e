package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.GatewayException;
import io.qubiq.core.health.ConnectionStatus;
import io.qubiq.core.sink.Sink;
import io.qubiq.core.tag.Custody;
import io.qubiq.testkit.ScriptedSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19: a batch submitted with the custody of the MQTT messages it came from has it released
 * exactly once, and only once the batch is safe (written, or in the buffer) or accounted for as lost.
 */
class ChannelCustodyTest {

    @TempDir
    Path dir;

    private final List<ChannelFixture> fixtures = new ArrayList<>();

    /** Counts every call: the channel must release each custody exactly once, not rely on idempotence. */
    private static final class Counted implements Custody {
        final AtomicInteger releases = new AtomicInteger();

        @Override
        public void release() {
            releases.incrementAndGet();
        }
    }

    /** Holds every write until opened, then passes it on to the scripted sink. */
    private static final class GatedSink implements Sink<String> {
        final ScriptedSink<String> inner;
        final CountDownLatch open = new CountDownLatch(1);
        final AtomicInteger waiting = new AtomicInteger();

        GatedSink(ScriptedSink<String> inner) {
            this.inner = inner;
        }

        @Override
        public String id() {
            return inner.id();
        }

        @Override
        public void write(List<String> batch) throws GatewayException {
            waiting.incrementAndGet();
            try {
                open.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            waiting.decrementAndGet();
            inner.write(batch);
        }

        @Override
        public ConnectionStatus probe() {
            return inner.probe();
        }

        @Override
        public void close() {
        }
    }

    private ChannelFixture fixture(ChannelConfig config, OverflowPolicy policy, Sink<String> sink) throws Exception {
        ChannelFixture fixture = new ChannelFixture(dir.resolve("c" + fixtures.size()), config, policy);
        if (sink != null) {
            fixture.withSink(sink);
        }
        fixtures.add(fixture.start());
        return fixture;
    }

    @AfterEach
    void close() throws Exception {
        for (ChannelFixture fixture : fixtures) {
            fixture.close();
        }
    }

    @Test
    void aHandedOffBatchReleasesItsCustodyOnlyAfterTheForwardersWriteSucceeded() throws Exception {
        ScriptedSink<String> scripted = new ScriptedSink<>("dest");
        GatedSink gate = new GatedSink(scripted);
        ChannelFixture f = fixture(ChannelFixture.fastConfig(), OverflowPolicy.REFUSE, gate);
        Counted custody = new Counted();

        assertThat(f.channel.submit(List.of("a", "b"), custody)).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> gate.waiting.get() == 1);
        assertThat(custody.releases).as("being written").hasValue(0);

        gate.open.countDown();
        await().until(() -> custody.releases.get() == 1);
        assertThat(scripted.received()).containsExactly("a", "b");
    }

    /**
     * Would catch a batch left in memory (and its MQTT messages unacknowledged, and lost to a kill -9)
     * for as long as the destination stays down: it was handed off just before the destination went
     * down, and no later submit came to move it into the buffer.
     */
    @Test
    void aBatchHandedOffJustBeforeTheDestinationWentDownIsBufferedAndItsCustodyReleased() throws Exception {
        ScriptedSink<String> scripted = new ScriptedSink<>("dest");
        GatedSink gate = new GatedSink(scripted);
        ChannelFixture f = fixture(ChannelFixture.fastConfig(), OverflowPolicy.REFUSE, gate);
        Counted queued = new Counted();
        assertThat(f.channel.submit(List.of("a"))).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> gate.waiting.get() == 1); // the forwarder is busy writing "a"
        assertThat(f.channel.submit(List.of("b", "c"), queued)).isEqualTo(SubmitOutcome.HANDED_OFF);

        f.liveness.set(io.qubiq.core.health.ConnectionState.DOWN);
        gate.open.countDown(); // "a" is written; then the forwarder finds the destination down

        await().until(() -> f.channel.status().bufferedItems() == 2);
        assertThat(queued.releases).as("safe in the buffer").hasValue(1);
        f.liveness.set(io.qubiq.core.health.ConnectionState.UP);
        await().until(() -> scripted.received().size() == 3);
        assertThat(scripted.received()).containsExactly("a", "b", "c");
    }

    @Test
    void handedOffBatchesSpilledIntoTheBufferReleaseTheirCustodyBeforeTheSlowWriteEnds() throws Exception {
        ScriptedSink<String> scripted = new ScriptedSink<>("dest");
        GatedSink gate = new GatedSink(scripted);
        ChannelFixture f = fixture(ChannelFixture.fastConfig(), OverflowPolicy.REFUSE, gate);
        Counted inFlight = new Counted();
        Counted queued = new Counted();
        Counted spilling = new Counted();

        assertThat(f.channel.submit(List.of("a"), inFlight)).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> gate.waiting.get() == 1);
        assertThat(f.channel.submit(ChannelFixture.items("q", 0, 50), queued)).isEqualTo(SubmitOutcome.HANDED_OFF);
        assertThat(inFlight.releases.get() + queued.releases.get()).as("handed off, in memory only").isZero();
        assertThat(f.channel.submit(List.of("last"), spilling)).as("the hand-off is full")
                .isEqualTo(SubmitOutcome.BUFFERED);

        assertThat(inFlight.releases).as("its copy is in the buffer").hasValue(1);
        assertThat(queued.releases).hasValue(1);
        assertThat(spilling.releases).hasValue(1);
        assertThat(scripted.received()).isEmpty();

        gate.open.countDown();
        await().until(() -> scripted.received().size() == 52);
        assertThat(inFlight.releases).as("not again when its write succeeds").hasValue(1);
        assertThat(queued.releases).hasValue(1);
    }

    @Test
    void aHandedOffBatchWhoseWriteFailsReleasesItsCustodyOnceItIsInTheBuffer() throws Exception {
        ScriptedSink<String> scripted = new ScriptedSink<>("dest");
        GatedSink gate = new GatedSink(scripted);
        ChannelFixture f = fixture(ChannelFixture.fastConfig(), OverflowPolicy.REFUSE, gate);
        scripted.down(true);
        Counted custody = new Counted();

        assertThat(f.channel.submit(List.of("a"), custody)).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> gate.waiting.get() == 1);
        assertThat(custody.releases).as("its write is under way").hasValue(0);
        gate.open.countDown();

        await().until(() -> f.channel.status().bufferedItems() == 1);
        await().until(() -> custody.releases.get() == 1);
        scripted.down(false);
        await().until(() -> scripted.received().size() == 1);
        assertThat(custody.releases).hasValue(1);
    }

    @Test
    void aBufferedBatchReleasesItsCustodyWhenSubmitReturns() throws Exception {
        ChannelFixture f = fixture(ChannelFixture.fastConfig().withFastPath(false), OverflowPolicy.REFUSE, null);
        f.sink.down(true);
        Counted custody = new Counted();

        assertThat(f.channel.submit(List.of("a"), custody)).isEqualTo(SubmitOutcome.BUFFERED);

        assertThat(custody.releases).hasValue(1);
    }

    @Test
    void aRefusedBatchReleasesItsCustodyTheRefusalIsTheProducersLossToReport() throws Exception {
        ChannelFixture f = fixture(ChannelFixture.fastConfig().withFastPath(false).withMaxBytes(1 << 20),
                OverflowPolicy.REFUSE, null);
        f.sink.down(true);
        String kb = "x".repeat(1000);
        Counted refused = new Counted();
        assertThatThrownBy(() -> {
            for (int i = 0; i < 5000; i++) {
                f.channel.submit(List.of(i + kb));
            }
        }).isInstanceOf(ChannelFullException.class);

        assertThatThrownBy(() -> f.channel.submit(List.of(kb, kb), refused))
                .isInstanceOf(ChannelFullException.class);
        assertThat(refused.releases).hasValue(1);
    }

    @Test
    void aStopMovesTheHandOffIntoTheBufferAndReleasesItsCustody() throws Exception {
        ScriptedSink<String> scripted = new ScriptedSink<>("dest");
        GatedSink gate = new GatedSink(scripted);
        ChannelFixture f = fixture(ChannelFixture.fastConfig(), OverflowPolicy.REFUSE, gate);
        Counted inFlight = new Counted();
        Counted queued = new Counted();
        f.channel.submit(List.of("a"), inFlight);
        await().until(() -> gate.waiting.get() == 1);
        f.channel.submit(List.of("b"), queued);
        assertThat(inFlight.releases.get() + queued.releases.get()).as("handed off, in memory only").isZero();

        Thread opener = new Thread(() -> {
            await().until(() -> inFlight.releases.get() == 1);
            gate.open.countDown();
        });
        opener.start();
        f.channel.stop();
        opener.join(20_000);

        assertThat(inFlight.releases).hasValue(1);
        assertThat(queued.releases).hasValue(1);
    }
}
