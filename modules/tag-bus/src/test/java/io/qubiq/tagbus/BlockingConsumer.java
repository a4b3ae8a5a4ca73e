package io.qubiq.tagbus;

import io.qubiq.core.tag.TagValue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * A consumer that blocks inside its first call until released, so a test can fill the
 * subscriber's queue deterministically; after release it records like {@link RecordingConsumer}.
 */
final class BlockingConsumer implements Consumer<List<TagValue>> {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final RecordingConsumer recorder = new RecordingConsumer();

    @Override
    public void accept(List<TagValue> batch) {
        entered.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while blocked", e);
        }
        recorder.accept(batch);
    }

    /** True once the delivery thread is inside the consumer, holding the first batch. */
    boolean isBlocked() {
        return entered.getCount() == 0;
    }

    void release() {
        release.countDown();
    }

    RecordingConsumer recorder() {
        return recorder;
    }
}
