package io.qubiq.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SignalShutdownTest {

    @Test
    void firstSignalReleasesTheMainThreadAndSecondSignalForcesTheExit() throws Exception {
        List<Integer> forced = new ArrayList<>();
        SignalShutdown shutdown = new SignalShutdown(forced::add);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
            try {
                shutdown.awaitRequest();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        shutdown.onSignal("SIGTERM", 3);
        waiting.get(5, TimeUnit.SECONDS);
        assertThat(shutdown.reason()).isEqualTo("SIGTERM");
        assertThat(forced).isEmpty();

        shutdown.onSignal("SIGINT", 3);
        assertThat(forced).containsExactly(3);
        assertThat(shutdown.reason()).isEqualTo("SIGTERM");
    }

    @Test
    void anInternalRequestStopsLikeASignalWithoutForcing() throws Exception {
        List<Integer> forced = new ArrayList<>();
        SignalShutdown shutdown = new SignalShutdown(forced::add);
        shutdown.request("fatal component error");
        shutdown.awaitRequest();
        assertThat(shutdown.reason()).isEqualTo("fatal component error");
        assertThat(forced).isEmpty();
    }
}
