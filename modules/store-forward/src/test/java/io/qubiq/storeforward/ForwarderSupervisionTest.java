package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.FailureClass;
import io.qubiq.core.error.PermanentException;
import io.qubiq.core.event.ForwarderFailedAlarm;
import io.qubiq.core.sink.ItemCodec;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.ScriptedSink;
import io.qubiq.testkit.TextCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forwarder that meets a throwable it cannot classify does not stay dead, and one item that keeps
 * crashing the sink or codec cannot stop a channel. Before supervision, an {@code Error} from a sink
 * ended the forwarder's thread for good (the channel showed STALLED, no alarm, nothing restarted it)
 * and the tests below hung until their timeout; an idempotent sink's crashing item blocked its
 * channel forever.
 */
class ForwarderSupervisionTest {

    @TempDir
    Path dir;

    ChannelFixture f;

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    private List<QuarantineEntry> quarantined() {
        return f.channel.quarantine().list(0, 1000, Optional.empty()).entries();
    }

    private void outOfMemoryOnceIsSurvived(ChannelConfig config) throws Exception {
        f = new ChannelFixture(dir, config, OverflowPolicy.REFUSE);
        CrashingSink sink = new CrashingSink(f.sink).errorOnce(new OutOfMemoryError("Java heap space (scripted)"));
        f.withSink(sink).start();
        List<String> sent = items("x", 0, 30);
        f.channel.submit(sent.subList(0, 10));

        // the forwarder died on the first write: alarm raised, channel shown FAILED, a new thread started
        await().atMost(Duration.ofSeconds(10)).until(() -> f.channel.forwarderRestarts() == 1);
        assertThat(f.events.alarms(ForwarderFailedAlarm.class)).singleElement().satisfies(alarm -> {
            assertThat(alarm.active()).isTrue();
            assertThat(alarm.key()).isEqualTo("forwarder-failed/dest");
            assertThat(alarm.error()).contains("java.lang.OutOfMemoryError: Java heap space (scripted)");
        });
        ChannelStatus failed = f.channel.status();
        assertThat(failed.state()).isEqualTo(ChannelState.FAILED);
        assertThat(failed.lastError()).get().asString().contains("forwarder failed").contains("OutOfMemoryError");
        f.channel.submit(sent.subList(10, 20));

        sink.release(); // the restarted forwarder's writes go through
        f.channel.submit(sent.subList(20, 30));
        await().atMost(Duration.ofSeconds(10)).until(() -> f.sink.received().size() == 30
                && f.channel.status().bufferedItems() == 0);
        assertThat(f.sink.received()).containsExactlyElementsOf(sent);
        assertThat(quarantined()).isEmpty();
        await().until(() -> f.events.alarms(ForwarderFailedAlarm.class).size() == 2);
        assertThat(f.events.alarms(ForwarderFailedAlarm.class).get(1).active()).isFalse();
        assertThat(f.channel.status().state()).isNotEqualTo(ChannelState.FAILED);
    }

    @Test
    void aSinkThrowingOutOfMemoryErrorOnceOnAHandedOffBatchIsSurvivedWithAlarmRestartAndEveryItemInOrder()
            throws Exception {
        outOfMemoryOnceIsSurvived(ChannelFixture.fastConfig());
    }

    @Test
    void aSinkThrowingOutOfMemoryErrorOnceOnABufferedBatchIsSurvivedWithAlarmRestartAndEveryItemInOrder()
            throws Exception {
        outOfMemoryOnceIsSurvived(ChannelFixture.fastConfig().withFastPath(false));
    }

    private void oneCrashingItemIsQuarantined(ChannelConfig config, boolean idempotent) throws Exception {
        f = new ChannelFixture(dir, config.withMaxDeliveryAttempts(3), OverflowPolicy.REFUSE,
                new ScriptedSink<String>("dest").idempotent(idempotent));
        f.withSink(new CrashingSink(f.sink).crashOn(item -> item.equals("x17"),
                item -> new IllegalStateException("cannot map " + item))).start();
        List<String> sent = items("x", 0, 40);
        for (int i = 0; i < sent.size(); i += 8) {
            f.channel.submit(sent.subList(i, i + 8));
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().size() == 39
                && f.channel.status().bufferedItems() == 0);
        List<String> expected = new ArrayList<>(sent);
        expected.remove("x17");
        assertThat(f.sink.received()).containsExactlyElementsOf(expected);
        assertThat(quarantined()).singleElement().satisfies(entry -> {
            assertThat(entry.reason()).isEqualTo("sink failure: java.lang.IllegalStateException: cannot map x17");
            assertThat(entry.attempts()).isEqualTo(3);
            assertThat(entry.failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
            assertThat(entry.error()).contains("CrashingSink");
        });
        assertThat(f.events.alarms(ForwarderFailedAlarm.class)).isEmpty(); // classified: the forwarder never died
    }

    @Test
    void anItemThatCrashesTheSinkEveryTimeIsQuarantinedAsSinkFailureAtTheCapAndLaterItemsAreDeliveredInOrder()
            throws Exception {
        oneCrashingItemIsQuarantined(ChannelFixture.fastConfig().withFastPath(false), false);
    }

    @Test
    void anItemThatCrashesTheSinkOnTheHandOffIsQuarantinedTheSameWay() throws Exception {
        oneCrashingItemIsQuarantined(ChannelFixture.fastConfig(), false);
    }

    @Test
    void anItemThatCrashesAnIdempotentSinkIsQuarantinedToo() throws Exception {
        oneCrashingItemIsQuarantined(ChannelFixture.fastConfig().withFastPath(false), true);
    }

    @Test
    void anItemThatCrashesTheCodecWhenDecodedIsQuarantinedAsCodecFailureAtTheCap() throws Exception {
        ItemCodec<String> codec = new ItemCodec<>() {
            private final TextCodec text = new TextCodec();

            @Override
            public byte[] encode(String item) {
                return text.encode(item);
            }

            @Override
            public String decode(byte[] bytes) throws PermanentException {
                String item = text.decode(bytes);
                if (item.equals("x5")) {
                    throw new ArrayIndexOutOfBoundsException("codec bug on " + item);
                }
                return item;
            }

            @Override
            public String preview(String item) {
                return text.preview(item);
            }
        };
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withFastPath(false).withMaxDeliveryAttempts(2),
                OverflowPolicy.REFUSE, new ScriptedSink<>("dest"), codec).start();
        f.channel.submit(items("x", 0, 10));

        await().atMost(Duration.ofSeconds(10)).until(() -> f.channel.status().bufferedItems() == 0);
        List<String> expected = new ArrayList<>(items("x", 0, 10));
        expected.remove("x5");
        assertThat(f.sink.received()).containsExactlyElementsOf(expected);
        assertThat(quarantined()).singleElement().satisfies(entry -> {
            assertThat(entry.reason()).isEqualTo("codec failure: java.lang.ArrayIndexOutOfBoundsException: codec bug on x5");
            assertThat(entry.attempts()).isEqualTo(2);
        });
    }
}
