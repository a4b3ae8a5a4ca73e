package io.qubiq.connector.opcua;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.core.tag.Quality;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.junit.jupiter.api.Test;

class TagValueFlowTest {

    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);
    static final OpcUaTagConfig TAG = new OpcUaTagConfig("line1/count", "ns=2;s=Count", 100, 1, Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(), false);
    static final TagPath PATH = TAG.tagPath();

    private static DataValue value(long sequence, String sourceTime) {
        DateTime at = new DateTime(Instant.parse(sourceTime));
        return new DataValue(new Variant(sequence), StatusCode.GOOD, at, at);
    }

    private static TagValueFlow started(AcquisitionMode mode, RecordingPublisher publisher) {
        TagValueFlow flow = new TagValueFlow(Duration.ZERO, mode, CLOCK);
        flow.start(publisher);
        return flow;
    }

    @Test
    void aRepeatedNotificationOfTheSameChangeIsDroppedAndCountedInSubscriptionMode() {
        RecordingPublisher publisher = new RecordingPublisher();
        TagValueFlow flow = started(AcquisitionMode.SUBSCRIPTION, publisher);

        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.100Z"));
        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.100Z"));
        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.200Z")); // same value, new sample: kept
        flow.onValue(TAG, PATH, value(8, "2026-03-01T11:59:59.200Z")); // new value, same time: kept

        assertThat(publisher.all()).extracting(TagValue::value).containsExactly(7L, 7L, 8L);
        assertThat(flow.received()).isEqualTo(4);
        assertThat(flow.repeatsDropped()).isEqualTo(1);
        assertThat(flow.rawType(PATH)).contains(Long.class);
    }

    @Test
    void pollingPublishesEveryReadEvenWhenNothingChanged() {
        RecordingPublisher publisher = new RecordingPublisher();
        TagValueFlow flow = started(AcquisitionMode.POLLING, publisher);

        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.100Z"));
        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.100Z"));

        assertThat(publisher.all()).hasSize(2);
        assertThat(flow.repeatsDropped()).isZero();
    }

    @Test
    void theSameValueAfterAnOutageIsPublishedAgainSoTheTagTurnsGood() {
        RecordingPublisher publisher = new RecordingPublisher();
        TagValueFlow flow = started(AcquisitionMode.SUBSCRIPTION, publisher);

        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.100Z"));
        flow.publishWithoutValue(PATH, Quality.BAD_NOT_CONNECTED, CLOCK.instant());
        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.100Z")); // the read after the reconnect

        assertThat(publisher.all()).extracting(TagValue::quality)
                .containsExactly(Quality.GOOD, Quality.BAD_NOT_CONNECTED, Quality.GOOD);
        assertThat(publisher.all().get(1).type()).as("the type it last had").isEqualTo(publisher.all().get(0).type());
    }

    @Test
    void nothingIsPublishedAfterClose() {
        RecordingPublisher publisher = new RecordingPublisher();
        TagValueFlow flow = started(AcquisitionMode.SUBSCRIPTION, publisher);
        flow.close();

        flow.onValue(TAG, PATH, value(7, "2026-03-01T11:59:59.100Z"));
        flow.publishWithoutValue(PATH, Quality.BAD_NOT_CONNECTED, CLOCK.instant());

        assertThat(publisher.all()).isEmpty();
    }
}
