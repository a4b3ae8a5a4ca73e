package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append publishes its record to readers (the segment's end) a moment before it advances the
 * buffer's tail sequence. A forwarder that peeks in that moment sees the record and acknowledges
 * it; the acknowledgement must not be refused as "never assigned". Found by {@link
 * BufferTortureTest}: the child's reader got {@code IllegalArgumentException: cannot acknowledge
 * 6338: the newest record is 6337} for a record its peek had just returned.
 *
 * <p>The moment is made deterministic by giving the reader a tail that lags one record behind,
 * as the appender's tail does between its two stores.
 */
class ReaderTailRaceTest {
  @TempDir Path temp;

  @Test
  void aRecordAPeekReturnedCanBeAcknowledgedBeforeTheAppendersTailCatchesUp() throws Exception {
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(TestBuffers.small(temp),
        WatermarkListener.none())) {
      buffer.append(TestBuffers.payload(1, 16));
      long newest = buffer.append(TestBuffers.payload(2, 16));
      SegmentReader lagging = new SegmentReader(chainOf(buffer), temp, () -> false,
          () -> newest - 1);

      List<BufferedRecord> peeked = lagging.peek(10, Long.MAX_VALUE);
      assertThat(peeked).extracting(BufferedRecord::sequence).endsWith(newest);
      lagging.acknowledge(newest);

      assertThat(buffer.reader().peek(10, Long.MAX_VALUE)).isEmpty();
    }
  }

  @Test
  void aSequenceNeverPublishedIsStillRefused() throws Exception {
    try (SegmentedDiskBuffer buffer = SegmentedDiskBuffer.open(TestBuffers.small(temp),
        WatermarkListener.none())) {
      long newest = buffer.append(TestBuffers.payload(1, 16));
      assertThatThrownBy(() -> buffer.reader().acknowledge(newest + 1))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  private static SegmentChain chainOf(SegmentedDiskBuffer buffer) throws Exception {
    Field chain = SegmentedDiskBuffer.class.getDeclaredField("chain");
    chain.setAccessible(true);
    return (SegmentChain) chain.get(buffer);
  }
}
