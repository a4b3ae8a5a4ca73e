package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qubiq.core.health.ConnectionState;
import io.qubiq.core.health.ConnectionStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The connection monitor: probes on an interval, keeps UP / DOWN / UNKNOWN, since when, and the last error. */
class ConnectionMonitorTest {

    private static final Instant T0 = Instant.parse("2026-11-30T05:00:00Z");
    private static final Duration LONG = Duration.ofHours(1);

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        private final AtomicReference<Instant> now = new AtomicReference<>(T0);

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration by) {
            now.updateAndGet(t -> t.plus(by));
        }
    }

    /** A probe that answers what the test scripted last and counts its calls. */
    private static final class ScriptedProbe implements Supplier<ConnectionStatus> {
        private final AtomicReference<Supplier<ConnectionStatus>> answer =
                new AtomicReference<>(() -> ConnectionStatus.up(Instant.EPOCH));
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public ConnectionStatus get() {
            calls.incrementAndGet();
            return answer.get().get();
        }

        void up() {
            answer.set(() -> ConnectionStatus.up(Instant.EPOCH));
        }

        void down(String error) {
            answer.set(() -> ConnectionStatus.down(Instant.EPOCH, error));
        }

        void unknown() {
            answer.set(() -> ConnectionStatus.unknown(Instant.EPOCH));
        }

        void throwing(RuntimeException e) {
            answer.set(() -> {
                throw e;
            });
        }

        void answering(ConnectionStatus status) {
            answer.set(() -> status);
        }
    }

    private final ManualClock clock = new ManualClock();
    private final ConnectionMonitor monitor = new ConnectionMonitor(clock);
    private final ScriptedProbe probe = new ScriptedProbe();

    @AfterEach
    void stop() throws Exception {
        monitor.stop();
    }

    @Test
    void connectionIsUnknownUntilTheFirstProbeAnswers() {
        Liveness liveness = monitor.register("sql", probe, LONG);
        assertThat(liveness.state()).isEqualTo(ConnectionState.UNKNOWN);
        assertThat(monitor.status("sql")).get().extracting(ConnectionStatus::since).isEqualTo(T0);
        assertThat(probe.calls).hasValue(0);
    }

    @Test
    void firstProbeRunsAtStartAndThenOnEveryInterval() {
        Liveness liveness = monitor.register("sql", probe, Duration.ofMillis(50));
        monitor.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> liveness.state() == ConnectionState.UP);
        await().atMost(Duration.ofSeconds(5)).until(() -> probe.calls.get() >= 5);
    }

    @Test
    void probesKeepTheirIntervalWhenTheWallClockStepsAnHourBackAndForward() {
        // Catches probe timing moved onto the wall clock (a "next probe at" instant compared with clock.instant()):
        // after a step back of one hour no probe would run for an hour, so a destination that went down would
        // stay UP and its forwarder would keep writing into it. The probe rhythm is the scheduler's, which
        // follows the monotonic clock; the wall clock only stamps "since".
        Liveness liveness = monitor.register("sql", probe, Duration.ofMillis(50));
        monitor.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> probe.calls.get() >= 3);

        clock.advance(LONG.negated());
        int beforeBack = probe.calls.get();
        await().atMost(Duration.ofSeconds(5)).until(() -> probe.calls.get() >= beforeBack + 5);
        probe.down("connection refused");
        await().atMost(Duration.ofSeconds(2)).until(() -> liveness.state() == ConnectionState.DOWN);
        assertThat(monitor.status("sql")).get().extracting(ConnectionStatus::since).as("stamped by the stepped clock")
                .isEqualTo(T0.minus(LONG));

        clock.advance(LONG.multipliedBy(2));
        int beforeForward = probe.calls.get();
        await().atMost(Duration.ofSeconds(5)).until(() -> probe.calls.get() >= beforeForward + 5);
        probe.up();
        await().atMost(Duration.ofSeconds(2)).until(() -> liveness.state() == ConnectionState.UP);
    }

    @Test
    void longIntervalMeansOneProbeAtStartAndNoMoreForAWhile() {
        monitor.register("sql", probe, LONG);
        monitor.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> probe.calls.get() == 1);
        await().during(Duration.ofMillis(300)).until(() -> probe.calls.get() == 1);
    }

    @Test
    void stateFollowsTheProbeThroughUpDownUnknownAndBack() {
        Liveness liveness = monitor.register("sql", probe, LONG);
        assertThat(monitor.probeNow("sql").state()).isEqualTo(ConnectionState.UP);
        probe.down("connection refused");
        assertThat(monitor.probeNow("sql").state()).isEqualTo(ConnectionState.DOWN);
        assertThat(liveness.state()).isEqualTo(ConnectionState.DOWN);
        probe.unknown();
        assertThat(monitor.probeNow("sql").state()).isEqualTo(ConnectionState.UNKNOWN);
        probe.up();
        assertThat(monitor.probeNow("sql").state()).isEqualTo(ConnectionState.UP);
        assertThat(monitor.statuses()).containsOnlyKeys("sql");
    }

    @Test
    void sinceTimeMovesOnlyWhenTheStateChanges() {
        monitor.register("sql", probe, LONG);
        clock.advance(Duration.ofSeconds(1));
        assertThat(monitor.probeNow("sql").since()).isEqualTo(T0.plusSeconds(1));

        clock.advance(Duration.ofSeconds(10));
        assertThat(monitor.probeNow("sql").since()).as("still UP").isEqualTo(T0.plusSeconds(1));

        probe.down("refused");
        clock.advance(Duration.ofSeconds(10));
        assertThat(monitor.probeNow("sql").since()).isEqualTo(T0.plusSeconds(21));
        clock.advance(Duration.ofSeconds(10));
        probe.down("another error while still down");
        assertThat(monitor.probeNow("sql").since()).as("still DOWN").isEqualTo(T0.plusSeconds(21));
    }

    @Test
    void sinceIsTheMonitorsOwnTimeNotTheTimeInTheProbesAnswer() {
        monitor.register("sql", probe, LONG);
        probe.answering(ConnectionStatus.down(Instant.parse("1999-01-01T00:00:00Z"), "refused"));
        clock.advance(Duration.ofSeconds(3));
        assertThat(monitor.probeNow("sql").since()).isEqualTo(T0.plusSeconds(3));
    }

    @Test
    void lastErrorIsKeptAfterRecoveryAndUpdatedWhileDown() {
        monitor.register("sql", probe, LONG);
        probe.down("connection refused");
        assertThat(monitor.probeNow("sql").lastError()).contains("connection refused");
        probe.down("no route to host");
        assertThat(monitor.probeNow("sql").lastError()).contains("no route to host");

        probe.up();
        ConnectionStatus recovered = monitor.probeNow("sql");
        assertThat(recovered.state()).isEqualTo(ConnectionState.UP);
        assertThat(recovered.lastError()).as("kept for the console after recovery").contains("no route to host");
        assertThat(monitor.probeNow("sql").lastError()).contains("no route to host");
    }

    @Test
    void callbacksRunOnEveryChangeAndOnlyOnAChange() {
        Liveness liveness = monitor.register("sql", probe, LONG);
        List<ConnectionState> seen = new ArrayList<>();
        liveness.onChange(() -> seen.add(liveness.state()));

        monitor.probeNow("sql"); // UNKNOWN -> UP
        monitor.probeNow("sql");
        probe.down("refused");
        monitor.probeNow("sql"); // UP -> DOWN
        monitor.probeNow("sql");
        probe.down("a different error, same state");
        monitor.probeNow("sql");
        probe.up();
        monitor.probeNow("sql"); // DOWN -> UP
        monitor.probeNow("sql");

        assertThat(seen).containsExactly(ConnectionState.UP, ConnectionState.DOWN, ConnectionState.UP);
    }

    @Test
    void probeThatThrowsCountsAsDownWithItsError() {
        Liveness liveness = monitor.register("sql", probe, LONG);
        monitor.probeNow("sql");
        probe.throwing(new IllegalStateException("driver bug"));
        ConnectionStatus status = monitor.probeNow("sql");
        assertThat(status.state()).isEqualTo(ConnectionState.DOWN);
        assertThat(liveness.state()).isEqualTo(ConnectionState.DOWN);
        assertThat(status.lastError()).get().asString().contains("driver bug");
    }

    @Test
    void probeThatAnswersNothingCountsAsDown() {
        monitor.register("sql", probe, LONG);
        probe.answering(null);
        ConnectionStatus status = monitor.probeNow("sql");
        assertThat(status.state()).isEqualTo(ConnectionState.DOWN);
        assertThat(status.lastError()).isPresent();
    }

    @Test
    void scheduledProbingGoesOnAfterACallbackThrows() {
        Liveness liveness = monitor.register("sql", probe, Duration.ofMillis(20));
        AtomicInteger callbacks = new AtomicInteger();
        liveness.onChange(() -> {
            if (callbacks.incrementAndGet() == 1) {
                throw new IllegalStateException("a listener with a bug");
            }
        });
        monitor.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> liveness.state() == ConnectionState.UP);
        int callsAfterFirstChange = probe.calls.get();
        await().atMost(Duration.ofSeconds(2)).until(() -> probe.calls.get() > callsAfterFirstChange + 2);

        probe.down("refused");
        await().atMost(Duration.ofSeconds(2)).until(() -> liveness.state() == ConnectionState.DOWN);
        assertThat(callbacks).hasValue(2);
    }

    @Test
    void scheduledProbingGoesOnAfterAProbeAnsweredNothing() {
        Liveness liveness = monitor.register("sql", probe, Duration.ofMillis(20));
        probe.answering(null);
        monitor.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> probe.calls.get() >= 2);
        probe.up();
        await().atMost(Duration.ofSeconds(2)).until(() -> liveness.state() == ConnectionState.UP);
    }

    @Test
    void aCallbackThatThrowsDoesNotKeepLaterCallbacksFromRunning() {
        Liveness liveness = monitor.register("sql", probe, LONG);
        AtomicInteger second = new AtomicInteger();
        liveness.onChange(() -> {
            throw new IllegalStateException("a listener with a bug");
        });
        liveness.onChange(second::incrementAndGet);
        monitor.probeNow("sql");
        assertThat(second).hasValue(1);
        assertThat(liveness.state()).isEqualTo(ConnectionState.UP);
    }

    @Test
    void eachConnectionIsProbedAndReportedOnItsOwn() {
        ScriptedProbe other = new ScriptedProbe();
        other.down("refused");
        monitor.register("sql", probe, LONG);
        monitor.register("mqtt", other, LONG);
        monitor.probeNow("sql");
        monitor.probeNow("mqtt");
        assertThat(monitor.statuses()).containsKeys("sql", "mqtt");
        assertThat(monitor.statuses().keySet()).containsExactly("sql", "mqtt");
        assertThat(monitor.status("sql")).get().extracting(ConnectionStatus::state).isEqualTo(ConnectionState.UP);
        assertThat(monitor.status("mqtt")).get().extracting(ConnectionStatus::state).isEqualTo(ConnectionState.DOWN);
        assertThat(monitor.status("nope")).isEqualTo(Optional.empty());
    }

    @Test
    void aConnectionRegisteredAfterStartIsProbedAtOnceAndThenOnItsInterval() {
        monitor.register("sql", probe, LONG);
        monitor.start();
        ScriptedProbe added = new ScriptedProbe();

        Liveness liveness = monitor.register("mqtt", added, Duration.ofMillis(50));

        await().atMost(Duration.ofSeconds(2)).until(() -> liveness.state() == ConnectionState.UP);
        await().atMost(Duration.ofSeconds(5)).until(() -> added.calls.get() >= 3);
        assertThat(monitor.statuses().keySet()).containsExactly("sql", "mqtt");
    }

    @Test
    void anUnregisteredConnectionIsProbedNoMoreAndItsIdCanBeRegisteredAgain() throws Exception {
        monitor.register("sql", probe, Duration.ofMillis(20));
        monitor.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> probe.calls.get() >= 2);

        monitor.unregister("sql");
        int calls = probe.calls.get();
        Thread.sleep(200); // ten intervals: a probe still scheduled would have run

        assertThat(probe.calls.get()).as("at most the probe running at the unregister finishes").isLessThanOrEqualTo(calls + 1);
        assertThat(monitor.status("sql")).isEmpty();
        ScriptedProbe again = new ScriptedProbe();
        monitor.register("sql", again, Duration.ofMillis(20));
        await().atMost(Duration.ofSeconds(2)).until(() -> again.calls.get() >= 1);
    }

    @Test
    void registeringAnIdTwiceIsRejected() {
        monitor.register("sql", probe, LONG);
        assertThatThrownBy(() -> monitor.register("sql", new ScriptedProbe(), LONG))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sql");
    }

    @Test
    void probeIntervalMustBePositive() {
        assertThatThrownBy(() -> monitor.register("sql", probe, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> monitor.register("mqtt", probe, Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void probingAnUnknownConnectionIsRejected() {
        assertThatThrownBy(() -> monitor.probeNow("nope")).isInstanceOf(IllegalArgumentException.class);
    }
}
