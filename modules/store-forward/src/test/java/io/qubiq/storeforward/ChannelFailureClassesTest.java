package io.qubiq.storeforward;

import static io.qubiq.storeforward.ChannelFixture.items;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.core.error.FailureClass;
import io.qubiq.storeforward.quarantine.QuarantineEntry;
import io.qubiq.testkit.ScriptedSink.Failure;
import io.qubiq.testkit.ScriptedSink.PoisonReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESIGN.md rule 4: transient, permanent and unknown-outcome failures. */
class ChannelFailureClassesTest {

    @TempDir
    Path dir;

    ChannelFixture f;

    /** Whether the channel's sink takes buffered items as bytes ({@link EncodedChannelFailureClassesTest}). */
    boolean encodedWrites() {
        return false;
    }

    ChannelFixture start(ChannelConfig config) throws Exception {
        f = new ChannelFixture(dir, config, OverflowPolicy.REFUSE);
        if (encodedWrites()) {
            f.withEncodedWrites();
        }
        f.start();
        return f;
    }

    @AfterEach
    void stop() throws Exception {
        if (f != null) {
            f.close();
        }
    }

    List<QuarantineEntry> quarantined() {
        return f.channel.quarantine().list(0, 1000, Optional.empty()).entries();
    }

    @Test
    void rule4_transientFailureIsRetriedHeadOfLineIndefinitelyAndNeverQuarantined() throws Exception {
        start(ChannelFixture.fastConfig().withMaxDeliveryAttempts(1));
        f.sink.down(true);
        f.channel.submit(items("x", 0, 10));
        await().until(() -> f.sink.writes() >= 20);

        f.sink.down(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> f.sink.received().size() == 10);
        assertThat(f.sink.received()).containsExactlyElementsOf(items("x", 0, 10));
        assertThat(quarantined()).isEmpty();
        assertThat(f.channel.status().itemsQuarantined()).isZero();
    }

    @Test
    void rule4_poisonItemInTheMiddleOfABatchIsQuarantinedAloneAndTheRestDeliveredInOrder() throws Exception {
        start(ChannelFixture.fastConfig().withFastPath(false));
        f.sink.poison(item -> item.equals("x17"), PoisonReport.UNNAMED);
        f.channel.submit(items("x", 0, 40));

        await().atMost(Duration.ofSeconds(10)).until(() -> f.channel.status().bufferedItems() == 0);
        List<String> expected = new java.util.ArrayList<>(items("x", 0, 40));
        expected.remove("x17");
        assertThat(f.sink.received()).containsExactlyElementsOf(expected);
        assertThat(quarantined()).singleElement().satisfies(entry -> {
            assertThat(entry.failureClass()).isEqualTo(FailureClass.PERMANENT);
            assertThat(entry.reason()).isEqualTo("rejected by the destination");
            assertThat(entry.error()).contains("constraint violation");
            assertThat(entry.attempts()).isEqualTo(1);
        });
        assertThat(f.channel.quarantine().get(quarantined().get(0).id()).orElseThrow().preview()).isEqualTo("x17");
    }

    @Test
    void rule4_itemsTheSinkNamesAreQuarantinedWithTheirReasonAndTheOthersWrittenAgain() throws Exception {
        start(ChannelFixture.fastConfig().withFastPath(false));
        f.sink.poison(item -> item.equals("x3") || item.equals("x7"), PoisonReport.NAMED);
        f.channel.submit(items("x", 0, 10));

        await().until(() -> f.channel.status().bufferedItems() == 0);
        assertThat(f.sink.received()).containsExactly("x0", "x1", "x2", "x4", "x5", "x6", "x8", "x9");
        assertThat(quarantined()).extracting(QuarantineEntry::reason)
                .containsExactly("poison item x7", "poison item x3");
    }

    @Test
    void rule4_partialWriteQuarantinesOnlyTheRejectedItemsWithoutWritingTheOthersTwice() throws Exception {
        start(ChannelFixture.fastConfig().withFastPath(false));
        f.sink.poison(item -> item.equals("x5"), PoisonReport.NAMED_PARTIAL);
        f.channel.submit(items("x", 0, 10));

        await().until(() -> f.channel.status().bufferedItems() == 0);
        assertThat(f.sink.received()).containsExactly("x0", "x1", "x2", "x3", "x4", "x6", "x7", "x8", "x9");
        assertThat(quarantined()).hasSize(1);
    }

    @Test
    void rule4_poisonOnTheFastPathIsBufferedThenIsolated() throws Exception {
        start(ChannelFixture.fastConfig());
        f.sink.poison(item -> item.equals("bad"), PoisonReport.UNNAMED);
        assertThat(f.channel.submit(List.of("good1", "bad", "good2"))).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> f.channel.status().bufferedItems() == 0);
        assertThat(f.sink.received()).containsExactly("good1", "good2");
        assertThat(quarantined()).singleElement().satisfies(entry -> assertThat(entry.attempts()).isEqualTo(2));
    }

    @Test
    void rule4_unknownOutcomeCountsAttemptsAndQuarantinesAsOutcomeUnknownAtTheCap() throws Exception {
        start(ChannelFixture.fastConfig().withFastPath(false).withMaxDeliveryAttempts(3));
        f.sink.failNext(Failure.UNKNOWN_LOST, 3);
        f.channel.submit(List.of("maybe"));

        await().until(() -> quarantined().size() == 1);
        QuarantineEntry entry = quarantined().get(0);
        assertThat(entry.failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
        assertThat(entry.reason()).isEqualTo("outcome unknown: check the destination before retrying");
        assertThat(entry.attempts()).isEqualTo(3);
        assertThat(entry.lastFailure()).isAfterOrEqualTo(entry.firstFailure());
        assertThat(f.sink.received()).isEmpty();
        assertThat(f.channel.status().bufferedItems()).isZero();
    }

    @Test
    void rule4_unknownOutcomeBelowTheCapIsRetriedAndMayDuplicateButNeverLoses() throws Exception {
        start(ChannelFixture.fastConfig().withFastPath(false).withMaxDeliveryAttempts(3));
        f.sink.failNext(Failure.UNKNOWN_COMMITTED, 1);
        f.channel.submit(List.of("once"));

        await().until(() -> f.channel.status().bufferedItems() == 0);
        assertThat(f.sink.received()).containsExactly("once", "once");
        assertThat(quarantined()).isEmpty();
        assertThat(f.channel.status().deliveryAttempts()).isEqualTo(2);
    }

    @Test
    void rule4_idempotentDestinationIsRetriedPastTheAttemptCap() throws Exception {
        start(ChannelFixture.fastConfig().withFastPath(false).withMaxDeliveryAttempts(1));
        f.sink.idempotent(true).failNext(Failure.UNKNOWN_LOST, 5);
        f.channel.submit(List.of("upsert"));

        await().until(() -> f.sink.received().size() == 1);
        assertThat(quarantined()).isEmpty();
    }

    @Test
    void itemThatCannotBeDecodedIsQuarantinedWithItsBytesInsteadOfBlocking() throws Exception {
        start(ChannelFixture.fastConfig().withFastPath(false));
        f.sink.down(true);
        f.channel.submit(List.of("before"));
        // put bytes that are not UTF-8 back through the quarantine path: requeue raw bytes
        f.channel.requeue(List.of(new byte[] {(byte) 0xC3, (byte) 0x28}));
        f.channel.submit(List.of("after"));
        f.sink.down(false);

        await().until(() -> f.channel.status().bufferedItems() == 0);
        assertThat(f.sink.received()).containsExactly("before", "after");
        assertThat(quarantined()).singleElement().satisfies(entry -> {
            assertThat(entry.reason()).isEqualTo("cannot be decoded for this destination");
            assertThat(entry.error()).contains("not UTF-8");
        });
    }

    @Test
    void sinkThatThrowsUncheckedIsTreatedAsUnknownOutcomeNotAsLoss() throws Exception {
        start(ChannelFixture.fastConfig().withMaxDeliveryAttempts(2));
        f.sink.failNext(Failure.UNCHECKED, 2);
        assertThat(f.channel.submit(List.of("x"))).isEqualTo(SubmitOutcome.HANDED_OFF);
        await().until(() -> quarantined().size() == 1);
        assertThat(quarantined().get(0).error()).contains("driver bug");
        assertThat(quarantined().get(0).failureClass()).isEqualTo(FailureClass.UNKNOWN_OUTCOME);
    }
}
