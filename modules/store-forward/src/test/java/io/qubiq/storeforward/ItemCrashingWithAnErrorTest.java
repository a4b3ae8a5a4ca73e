package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.Durability;
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
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One item that makes the sink (or the codec) throw an {@link Error} every time cannot stop a channel:
 * the items around it are delivered in order and it is quarantined at the attempt cap as
 * "sink failure: &lt;class&gt;: &lt;message&gt;", on the hand-off, from the buffer and on a synchronous
 * channel. Before, every {@code Error} was fatal and never capped: the forwarder was restarted for
 * ever on the same batch, and the items behind it never arrived.
 */
class ItemCrashingWithAnErrorTest {

    /** Errors a sink or codec can throw for one payload. */
    enum Thrown {
        STACK_OVERFLOW(item -> new StackOverflowError("recursing into " + item)),
        NO_CLASS_DEF(item -> new NoClassDefFoundError("com/example/Mapper for " + item)),
        ASSERTION(item -> new AssertionError("unexpected shape of " + item)),
        /** Not the item's fault as a rule, but an item that causes it every time is capped too. */
        OUT_OF_MEMORY(item -> new OutOfMemoryError("Java heap space expanding " + item));

        final Function<String, Error> make;

        Thrown(Function<String, Error> make) {
            this.make = make;
        }
    }

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

    private void oneItemThrowingIsQuarantined(ChannelConfig config, Thrown thrown) throws Exception {
        f = new ChannelFixture(dir, config.withMaxDeliveryAttempts(3), OverflowPolicy.REFUSE,
                new ScriptedSink<>("dest"));
        f.withSink(new CrashingSink(f.sink).errorOn(item -> item.equals("x17"), thrown.make)).start();
        List<String> sent = items("x", 0, 40);
        for (int i = 0; i < sent.size(); i += 8) {
            f.channel.submit(sent.subList(i, i + 8));
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> f.sink.received().size() == 39
                && f.channel.status().bufferedItems() == 0 && quarantined().size() == 1);
        List<String> expected = new ArrayList<>(sent);
        expected.remove("x17");
        assertThat(f.sink.received()).containsExactlyElementsOf(expected);
        Error example = thrown.make.apply("x17");
        assertThat(quarantined()).singleElement().satisfies(entry -> {
            assertThat(entry.reason()).isEqualTo("sink failure: " + example.getClass().getName() + ": "
                    + example.getMessage());
            assertThat(entry.attempts()).isEqualTo(3);
            assertThat(entry.failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
            assertThat(entry.error()).contains("CrashingSink");
        });
    }

    @ParameterizedTest
    @EnumSource(Thrown.class)
    void anItemThatMakesTheSinkThrowAnErrorEveryTimeIsQuarantinedFromTheBufferAtTheCapAndTheOthersAreDeliveredInOrder(
            Thrown thrown) throws Exception {
        oneItemThrowingIsQuarantined(ChannelFixture.fastConfig().withFastPath(false), thrown);
    }

    @ParameterizedTest
    @EnumSource(Thrown.class)
    void anItemThatMakesTheSinkThrowAnErrorEveryTimeOnTheHandOffIsQuarantinedTheSameWay(Thrown thrown)
            throws Exception {
        oneItemThrowingIsQuarantined(ChannelFixture.fastConfig(), thrown);
    }

    @Test
    void aStackOverflowErrorOnOneItemNeverKillsTheForwarder() throws Exception {
        oneItemThrowingIsQuarantined(ChannelFixture.fastConfig(), Thrown.STACK_OVERFLOW);
        assertThat(f.channel.forwarderRestarts()).isZero();
        assertThat(f.events.alarms(ForwarderFailedAlarm.class)).isEmpty();
    }

    @Test
    void anOutOfMemoryErrorStillRestartsTheForwarderWithItsAlarmUntilTheItemIsQuarantined() throws Exception {
        oneItemThrowingIsQuarantined(ChannelFixture.fastConfig(), Thrown.OUT_OF_MEMORY);
        assertThat(f.channel.forwarderRestarts()).isPositive();
        assertThat(f.events.alarms(ForwarderFailedAlarm.class)).first()
                .satisfies(alarm -> assertThat(alarm.active()).isTrue());
        await().atMost(Duration.ofSeconds(10)).until(() -> !f.events.alarms(ForwarderFailedAlarm.class)
                .get(f.events.alarms(ForwarderFailedAlarm.class).size() - 1).active());
    }

    @Test
    void aSynchronousChannelBuffersABatchWhoseItemThrowsAnErrorInsteadOfThrowingItAtTheProducer() throws Exception {
        f = new ChannelFixture(dir, ChannelFixture.fastConfig().withDurability(Durability.ALWAYS)
                .withMaxDeliveryAttempts(3), OverflowPolicy.REFUSE);
        f.withSink(new CrashingSink(f.sink).errorOn(item -> item.equals("x3"),
                item -> new StackOverflowError("recursing into " + item))).start();

        assertThat(f.channel.submit(items("x", 0, 8))).isEqualTo(SubmitOutcome.BUFFERED);
        f.channel.submit(items("x", 8, 16));

        await().atMost(Duration.ofSeconds(20)).until(() -> f.sink.received().size() == 15
                && f.channel.status().bufferedItems() == 0);
        List<String> expected = new ArrayList<>(items("x", 0, 16));
        expected.remove("x3");
        assertThat(f.sink.received()).containsExactlyElementsOf(expected);
        assertThat(quarantined()).singleElement().satisfies(entry -> assertThat(entry.reason())
                .isEqualTo("sink failure: java.lang.StackOverflowError: recursing into x3"));
    }

    @Test
    void anItemThatMakesTheCodecThrowAnErrorWhenDecodedIsQuarantinedAsCodecFailureAtTheCap() throws Exception {
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
                    throw new StackOverflowError("nested too deep in " + item);
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

        await().atMost(Duration.ofSeconds(20)).until(() -> f.channel.status().bufferedItems() == 0);
        List<String> expected = new ArrayList<>(items("x", 0, 10));
        expected.remove("x5");
        assertThat(f.sink.received()).containsExactlyElementsOf(expected);
        assertThat(quarantined()).singleElement().satisfies(entry -> {
            assertThat(entry.reason()).isEqualTo("codec failure: java.lang.StackOverflowError: nested too deep in x5");
            assertThat(entry.attempts()).isEqualTo(2);
        });
    }
}
