package io.qubiq.app.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.qubiq.core.lifecycle.Component;
import io.qubiq.core.lifecycle.ComponentState;
import io.qubiq.core.lifecycle.ComponentStatus;
import io.qubiq.core.lifecycle.Readiness;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class LifecycleTest {

    private final List<String> events = new CopyOnWriteArrayList<>();

    private Component component(String name) {
        return new Component() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start() {
                events.add("start " + name);
            }

            @Override
            public void stop() {
                events.add("stop " + name);
            }
        };
    }

    private Component failingToStart(String name) {
        return new Component() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start() {
                throw new IllegalStateException("port 8080 is in use");
            }

            @Override
            public void stop() {
                events.add("stop " + name);
            }
        };
    }

    private Component hangingOnStop(String name, CountDownLatch release) {
        return new Component() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start() {
                events.add("start " + name);
            }

            @Override
            public void stop() throws InterruptedException {
                release.await();
            }
        };
    }

    private Lifecycle lifecycle(Component... components) {
        Lifecycle lifecycle = new Lifecycle(Clock.systemUTC());
        for (Component component : components) {
            lifecycle.add(component);
        }
        return lifecycle;
    }

    @Test
    void startsInDependencyOrderAndStopsInReverse() throws Exception {
        Lifecycle lifecycle = lifecycle(component("http"), component("tag-bus"), component("historian"));
        assertThat(lifecycle.readiness()).isEqualTo(Readiness.STARTING);

        lifecycle.startAll();
        assertThat(lifecycle.readiness()).isEqualTo(Readiness.READY);
        assertThat(lifecycle.statuses()).extracting(ComponentStatus::state).containsOnly(ComponentState.RUNNING);

        StopReport report = lifecycle.stopAll(Duration.ofSeconds(5));
        assertThat(report.timedOut()).isFalse();
        assertThat(events).containsExactly("start http", "start tag-bus", "start historian",
                "stop historian", "stop tag-bus", "stop http");
        assertThat(lifecycle.statuses()).extracting(ComponentStatus::state).containsOnly(ComponentState.STOPPED);
        assertThat(lifecycle.readiness()).isEqualTo(Readiness.STOPPING);
    }

    @Test
    void failedStartStopsWhatAlreadyStartedAndNamesTheComponent() {
        Lifecycle lifecycle = lifecycle(component("http"), component("tag-bus"), failingToStart("historian"),
                component("connectors"));

        assertThatThrownBy(lifecycle::startAll)
                .isInstanceOf(StartupException.class)
                .hasMessage("component 'historian' failed to start: port 8080 is in use");
        assertThat(events).containsExactly("start http", "start tag-bus", "stop tag-bus", "stop http");
        assertThat(lifecycle.readiness()).isEqualTo(Readiness.FAILED);
        assertThat(lifecycle.statuses().get(2).state()).isEqualTo(ComponentState.FAILED);
        assertThat(lifecycle.statuses().get(2).error()).contains("port 8080 is in use");
        assertThat(lifecycle.statuses().get(3).state()).isEqualTo(ComponentState.NEW);
    }

    @Test
    void isolatedComponentThatFailsToStartIsFailedWithItsReasonAndTheRestStartsDegraded() throws Exception {
        Lifecycle lifecycle = new Lifecycle(Clock.systemUTC())
                .add(component("http"))
                .addIsolated(failingToStart("channel:db"))
                .addIsolated(component("channel:mqtt"))
                .add(component("tag-bus"));

        lifecycle.startAll();

        assertThat(lifecycle.readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(lifecycle.statuses()).extracting(ComponentStatus::name, ComponentStatus::state).containsExactly(
                tuple("http", ComponentState.RUNNING),
                tuple("channel:db", ComponentState.FAILED),
                tuple("channel:mqtt", ComponentState.RUNNING),
                tuple("tag-bus", ComponentState.RUNNING));
        assertThat(lifecycle.statuses().get(1).error()).contains("port 8080 is in use");

        lifecycle.stopAll(Duration.ofSeconds(5));
        assertThat(events).containsExactly("start http", "start channel:mqtt", "start tag-bus",
                "stop tag-bus", "stop channel:mqtt", "stop http");
        assertThat(lifecycle.statuses().get(1).state()).as("never started, so never stopped")
                .isEqualTo(ComponentState.FAILED);
    }

    @Test
    void componentWhosePrerequisiteFailedIsNotStartedAndNamesIt() throws Exception {
        Component channel = failingToStart("channel:historian");
        Lifecycle lifecycle = new Lifecycle(Clock.systemUTC())
                .add(component("http"))
                .addIsolated(channel);
        lifecycle.addIsolated(component("historian"), channel);

        lifecycle.startAll();

        assertThat(lifecycle.readiness()).isEqualTo(Readiness.DEGRADED);
        assertThat(lifecycle.statuses().get(2).state()).isEqualTo(ComponentState.FAILED);
        assertThat(lifecycle.statuses().get(2).error())
                .contains("not started: it needs 'channel:historian', which failed to start");
        assertThat(events).containsExactly("start http");
        assertThatThrownBy(() -> new Lifecycle(Clock.systemUTC()).addIsolated(component("a"), component("b")))
                .hasMessage("'a' needs 'b', which must be added before it");
    }

    @Test
    void failureReasonKeepsThePathAndTheOsErrorOfAWrappedFileSystemError() {
        Exception wrapped = new java.io.IOException("opening buffer /data/connections/db/buffer failed",
                new java.nio.file.FileAlreadyExistsException("/data/connections/db/buffer"));
        assertThat(FailureReason.of(wrapped)).isEqualTo("opening buffer /data/connections/db/buffer failed: "
                + "/data/connections/db/buffer (FileAlreadyExistsException)");

        Exception denied = new IllegalStateException("cannot open the buffer",
                new java.nio.file.AccessDeniedException("/data/connections/db/buffer", null, "Permission denied"));
        assertThat(FailureReason.of(denied))
                .isEqualTo("cannot open the buffer: /data/connections/db/buffer: Permission denied");

        Exception repeated = new RuntimeException(new java.io.IOException("No space left on device"));
        assertThat(FailureReason.of(repeated)).isEqualTo("java.io.IOException: No space left on device");

        Exception quoted = new java.io.IOException("opening buffer /b failed: java.nio.file.FileAlreadyExistsException: /b",
                new java.nio.file.FileAlreadyExistsException("/b"));
        assertThat(FailureReason.of(quoted)).isEqualTo("opening buffer /b failed: java.nio.file.FileAlreadyExistsException: /b");
    }

    @Test
    void stopThatOutlastsTheGracePeriodIsReportedWithEveryComponentNotYetStopped() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        Lifecycle lifecycle = lifecycle(component("http"), hangingOnStop("historian", never), component("connectors"));
        lifecycle.startAll();

        StopReport report = lifecycle.stopAll(Duration.ofMillis(200));

        assertThat(report.timedOut()).isTrue();
        assertThat(report.unfinished()).containsExactly("historian", "http");
        assertThat(events).contains("stop connectors").doesNotContain("stop http");
        never.countDown();
    }

    @Test
    void stopIsIdempotentAndAComponentThatThrowsOnStopDoesNotBlockTheOthers() throws Exception {
        Component throwing = new Component() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public void start() {
            }

            @Override
            public void stop() {
                throw new IllegalStateException("socket already closed");
            }
        };
        Lifecycle lifecycle = lifecycle(component("http"), throwing);
        lifecycle.startAll();

        StopReport first = lifecycle.stopAll(Duration.ofSeconds(5));
        StopReport second = lifecycle.stopAll(Duration.ofSeconds(5));

        assertThat(first.failed()).containsExactly("broken");
        assertThat(events).containsExactly("start http", "stop http");
        assertThat(second.failed()).isEmpty();
        assertThat(second.took()).isEqualTo(Duration.ZERO);
    }

    @Test
    void componentNamesAreUniqueAndNoComponentJoinsAfterStartUp() throws Exception {
        Lifecycle lifecycle = lifecycle(component("http"));
        assertThatThrownBy(() -> lifecycle.add(component("http")))
                .hasMessage("two components are named 'http'");
        lifecycle.startAll();
        assertThatThrownBy(() -> lifecycle.add(component("late")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aComponentAdoptedWhileRunningIsListedAndStoppedJustAfterTheOneItStopsAfter() throws Exception {
        Component pipelines = component("pipelines");
        Lifecycle lifecycle = lifecycle(component("http"), component("channel:a"), pipelines, component("devices"));
        lifecycle.startAll();
        Component added = component("channel:b");

        lifecycle.adopt(added, pipelines);

        assertThat(lifecycle.statuses()).extracting(ComponentStatus::name)
                .containsExactly("http", "channel:a", "channel:b", "pipelines", "devices");
        assertThat(lifecycle.statuses().get(2).state()).isEqualTo(ComponentState.RUNNING);
        lifecycle.stopAll(Duration.ofSeconds(5));
        assertThat(events).endsWith("stop devices", "stop pipelines", "stop channel:b", "stop channel:a", "stop http");
    }

    @Test
    void aRetiredComponentIsNoLongerListedNorStoppedAgain() throws Exception {
        Component channel = component("channel:a");
        Lifecycle lifecycle = lifecycle(component("http"), channel);
        lifecycle.startAll();

        lifecycle.retire(channel);

        assertThat(lifecycle.statuses()).extracting(ComponentStatus::name).containsExactly("http");
        lifecycle.stopAll(Duration.ofSeconds(5));
        assertThat(events).containsExactly("start http", "start channel:a", "stop http");
    }

    @Test
    void nothingIsAdoptedBeforeStartUpEndsOrOnceAShutdownBegan() throws Exception {
        Lifecycle lifecycle = lifecycle(component("http"));
        assertThatThrownBy(() -> lifecycle.adopt(component("early"), null)).isInstanceOf(IllegalStateException.class);
        lifecycle.startAll();
        lifecycle.stopAll(Duration.ofSeconds(5));

        assertThatThrownBy(() -> lifecycle.adopt(component("late"), null)).isInstanceOf(IllegalStateException.class);
    }
}
