package io.qubiq.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SignalReloadTest {

    @Test
    void signalsDuringAReloadAreAnsweredByOneMoreReloadAfterItNotOneEach() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger reloads = new AtomicInteger();
        SignalReload signals = new SignalReload(() -> {
            reloads.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        signals.requested();
        await().atMost(Duration.ofSeconds(5)).until(() -> reloads.get() == 1);
        for (int i = 0; i < 5; i++) {
            signals.requested();
        }
        release.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> reloads.get() == 2);
        Thread.sleep(200);
        assertThat(reloads.get()).as("the edits made meanwhile are read once more, not five times").isEqualTo(2);
    }

    @Test
    void aReloadThatThrowsLeavesTheNextSignalWorking() {
        AtomicInteger calls = new AtomicInteger();
        SignalReload signals = new SignalReload(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("the file vanished");
            }
        });

        signals.requested();
        await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() == 1);
        signals.requested();

        await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() == 2);
    }
}
