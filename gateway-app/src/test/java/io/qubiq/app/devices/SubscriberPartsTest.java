package io.qubiq.app.devices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.event.EventPublisher;
import io.qubiq.core.lifecycle.DegradedPart;
import io.qubiq.core.tag.TagPath;
import io.qubiq.core.tag.TagValue;
import io.qubiq.tagbus.OverflowPolicy;
import io.qubiq.tagbus.SubscriptionSpec;
import io.qubiq.tagbus.TagBus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SubscriberPartsTest {

    // Catches: /health staying READY while a tag-bus subscriber's delivery thread is dead or restarting.
    @Test
    void aSubscriberWhoseHandlerThrewAnErrorIsADegradedPartUntilItDeliversAgain() throws Exception {
        TagBus bus = new TagBus(Duration.ofSeconds(2), EventPublisher.none(), Clock.systemUTC());
        AtomicBoolean thrown = new AtomicBoolean();
        CountDownLatch release = new CountDownLatch(1);
        bus.subscribe(SubscriptionSpec.perValue("historian", 10, OverflowPolicy.DROP_OLDEST, value -> {
            if (thrown.compareAndSet(false, true)) {
                throw new OutOfMemoryError("Java heap space (scripted)");
            }
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        bus.start();
        SubscriberParts parts = new SubscriberParts(bus);
        try {
            bus.publish(TagValue.good(TagPath.of("line/speed"), 1L, Instant.EPOCH));
            bus.publish(TagValue.good(TagPath.of("line/speed"), 2L, Instant.EPOCH));
            await().until(() -> !parts.degradedParts().isEmpty());
            assertThat(parts.degradedParts()).containsExactly(new DegradedPart("tag-bus:historian", "FAILED",
                    "subscriber failed (java.lang.OutOfMemoryError: Java heap space (scripted)); its delivery thread"
                            + " is restarted with backoff"));
            release.countDown();
            await().until(() -> parts.degradedParts().isEmpty());
        } finally {
            release.countDown();
            bus.stop();
        }
    }
}
