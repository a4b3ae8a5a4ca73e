package io.qubiq.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** While held (the disk is almost full) a buffer does not grow, memory and disk alike. */
class HoldSizeTest {

    private static final int SEGMENT = 64 * 1024;
    private static final byte[] RECORD = new byte[1000];

    @TempDir
    Path dir;

    private DurableBuffer open(boolean disk, OverflowPolicy policy) throws BufferException {
        BufferOptions options = BufferOptions.defaults(dir.resolve("b")).withSegmentBytes(SEGMENT)
                .withMaxBytes(16L * SEGMENT).withOverflowPolicy(policy);
        return disk ? SegmentedDiskBuffer.open(options, WatermarkListener.none())
                : MemoryBuffer.create(options, WatermarkListener.none());
    }

    @ParameterizedTest(name = "disk={0}")
    @ValueSource(booleans = {false, true})
    void dropOldestWhileHeldKeepsTheSizeAndDropsTheOldest(boolean disk) throws Exception {
        try (DurableBuffer buffer = open(disk, OverflowPolicy.DROP_OLDEST)) {
            for (int i = 0; i < 200; i++) {
                buffer.append(RECORD);
            }
            long held = buffer.stats().usedBytes();
            buffer.holdSize(true);
            buffer.holdSize(true);
            for (int i = 0; i < 300; i++) {
                buffer.append(RECORD);
            }
            assertThat(buffer.stats().usedBytes()).isLessThanOrEqualTo(held);
            assertThat(buffer.stats().droppedRecords()).isEqualTo(300);
            assertThat(buffer.reader().peek(1, Long.MAX_VALUE).get(0).sequence()).isEqualTo(301);

            buffer.holdSize(false);
            buffer.append(RECORD);
            assertThat(buffer.stats().usedBytes()).isGreaterThan(held);
        }
    }

    @ParameterizedTest(name = "disk={0}")
    @ValueSource(booleans = {false, true})
    void refuseWhileHeldRefusesBeyondTheSizeButAtLeastOneSegmentIsUsable(boolean disk) throws Exception {
        try (DurableBuffer buffer = open(disk, OverflowPolicy.REFUSE)) {
            buffer.holdSize(true);
            int stored = 0;
            try {
                while (stored < 1000) {
                    buffer.append(RECORD);
                    stored++;
                }
            } catch (BufferFullException expected) {
                // the held size reached
            }
            assertThat(stored).as("one segment's worth").isBetween(SEGMENT / 1024 - 4, SEGMENT / 1000);
            assertThatThrownBy(() -> buffer.appendBatch(List.of(RECORD))).isInstanceOf(BufferFullException.class);
            buffer.reader().acknowledge(buffer.reader().peek(1, Long.MAX_VALUE).get(0).sequence());
            buffer.append(RECORD);
        }
    }
}
