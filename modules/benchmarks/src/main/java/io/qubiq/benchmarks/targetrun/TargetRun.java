package io.qubiq.benchmarks.targetrun;

import io.qubiq.testkit.mqtt.Mosquitto;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 20's end-to-end target run (a plain main, run by {@code scripts/target-run}, never by CI). In
 * order: an external QuestDB, mosquitto (persistence on, no queue limit) and the OPC UA bench server
 * as child processes on free loopback ports; the gateway's YAML; the packaged gateway started with
 * the launcher, timed from start to {@code /health} READY; then the OPC UA updates and the MQTT
 * publisher for {@code --seconds} while the gateway's CPU and RSS are sampled. Scenario {@code
 * restarts}: mosquitto stopped (SIGTERM) for 5 s at a third of the run, the gateway killed (SIGKILL)
 * at two thirds and started again 10 s later. At the end the loads stop, the history is awaited until
 * it stops growing and checked ({@link HistoryCheck}); one report is printed ({@link TargetReport}).
 *
 * <p>Exit code 0 when every value arrived once, 2 when a value was lost or duplicated, 1 when the run
 * itself failed. Every child is stopped by its own handle at the end, also on failure or Ctrl-C (a
 * shutdown hook). Single-threaded apart from the publisher's and sampler's own threads.
 */
public final class TargetRun {

    private static final Duration READY_LIMIT = Duration.ofMinutes(3);

    private final TargetOptions options;
    private final List<AutoCloseable> started = new ArrayList<>();
    private final List<Path> gatewayOutputs = new ArrayList<>();
    private volatile GatewayChild gateway;
    private Mosquitto mosquitto;

    private TargetRun(TargetOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        TargetOptions options;
        try {
            options = TargetOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("target-run: " + e.getMessage());
            System.exit(1);
            return;
        }
        TargetRun run = new TargetRun(options);
        runAndExit("target-run", run::run, run::stopEverything);
    }

    /** What a run does; its exit code. */
    interface Run {
        int run() throws Exception;
    }

    /**
     * Runs {@code run} and exits with its code (1 when it threw), stopping every child with {@code
     * stopEverything} at the end and from a shutdown hook on Ctrl-C.
     */
    static void runAndExit(String name, Run run, Runnable stopEverything) {
        Thread hook = new Thread(stopEverything, name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        int code;
        try {
            code = run.run();
        } catch (Exception e) {
            System.err.println(name + ": the run failed: " + e);
            e.printStackTrace();
            code = 1;
        }
        stopEverything.run();
        Runtime.getRuntime().removeShutdownHook(hook);
        System.exit(code);
    }

    private int run() throws Exception {
        Path work = Files.createDirectories(options.workDir.toAbsolutePath());
        if (!Files.isRegularFile(options.jar)) {
            throw new IllegalStateException("the gateway jar " + options.jar + " does not exist (scripts/target-run builds it)");
        }
        log("work directory " + work);
        QuestDbServer questDb = QuestDbServer.start(work.resolve("questdb"));
        started.add(questDb);
        log("QuestDB on 127.0.0.1:" + questDb.httpPort() + " (pid " + questDb.pid() + ")");
        mosquitto = Mosquitto.start(Mosquitto.Options.defaults().withPersistence().withMaxQueuedMessages(0));
        started.add(() -> {
            copyQuietly(mosquitto.log(), work.resolve("mosquitto.log"));
            mosquitto.close();
        });
        log("mosquitto on 127.0.0.1:" + mosquitto.port() + " (pid " + mosquitto.pid() + ", persistence on)");
        BenchServerChild server = BenchServerChild.start(work, options.tags, options.intervalMs, options.serverHeap);
        started.add(server);
        log("OPC UA bench server at " + server.endpoint() + " (pid " + server.pid() + ", " + options.tags + " variables)");

        Path config = GatewayConfigWriter.write(work.resolve("gateway.yaml"), options, server.endpoint(),
                mosquitto.port(), questDb.httpPort());
        int httpPort = freePort();
        Path dataDir = work.resolve("gateway-data");
        ProcessSampler sampler = new ProcessSampler(() -> gateway == null ? -1 : gateway.pid(), ProcessSampler.clockTicks());
        started.add(sampler);
        sampler.start(2000);
        List<Duration> readiness = new ArrayList<>();
        gateway = startGateway(config, dataDir, httpPort, readiness);

        SequencePublisher publisher = new SequencePublisher(mosquitto.port(), options.topics);
        started.add(publisher);
        sampler.sample();
        double cpuAtStart = sampler.cpuSeconds();
        long runStartNanos = System.nanoTime();
        server.startUpdates();
        publisher.start(options.publishPeriodMicros());
        log("running " + options.seconds + " s: " + options.tags + " tags every " + options.intervalMs + " ms, "
                + options.mqttRate + " MQTT messages/s over " + options.topics + " topics, scenario "
                + options.scenario.name().toLowerCase());

        List<HistoryCheck.Window> down = new ArrayList<>();
        long totalMs = options.seconds * 1000L;
        if (options.scenario == TargetOptions.Scenario.RESTARTS) {
            sleepUntil(runStartNanos, totalMs / 3);
            log("stopping mosquitto (SIGTERM to pid " + mosquitto.pid() + ") for 5 s");
            mosquitto.stop();
            Thread.sleep(5000);
            mosquitto.start();
            log("mosquitto is back on port " + mosquitto.port() + " (pid " + mosquitto.pid() + ")");
            sleepUntil(runStartNanos, 2 * totalMs / 3);
            long killedAt = System.currentTimeMillis();
            log("killing the gateway (SIGKILL to pid " + gateway.pid() + "); starting it again in 10 s");
            sampler.sample();
            gateway.kill();
            Thread.sleep(10_000);
            gateway = startGateway(config, dataDir, httpPort, readiness);
            down.add(new HistoryCheck.Window(killedAt, System.currentTimeMillis()));
        }
        sleepUntil(runStartNanos, totalMs);
        publisher.stop(30_000);
        long finalSequence = server.stopUpdates();
        sampler.sample();
        double runSeconds = (System.nanoTime() - runStartNanos) / 1e9;
        double cpuDuringRun = sampler.cpuSeconds() - cpuAtStart;
        log("loads stopped (OPC UA at sequence " + finalSequence + ", " + publisher.acknowledged()
                + " MQTT messages acknowledged); waiting for the history to stop growing");

        HistoryCheck history = new HistoryCheck(questDb);
        history.awaitStable(10_000, 600_000);
        sampler.sample();
        HistoryCheck.Verdict verdict = history.check(options.tags, finalSequence, options.intervalMs, down, publisher);
        TargetReport report = new TargetReport(options, readiness, runSeconds, cpuDuringRun, sampler.cpuSeconds(),
                sampler.maxRssKb(), publisher.published(), publisher.failed(), verdict, GatewayLog.read(gatewayOutputs),
                down);
        String text = report.render();
        System.out.println(text);
        Files.writeString(work.resolve("report.txt"), text);
        return verdict.clean() ? 0 : 2;
    }

    private GatewayChild startGateway(Path config, Path dataDir, int httpPort, List<Duration> readiness)
            throws IOException, InterruptedException {
        GatewayChild child = GatewayChild.start(options, config, dataDir, httpPort, readiness.size() + 1);
        gatewayOutputs.add(child.output());
        gateway = child;
        Duration ready = child.awaitReady(READY_LIMIT);
        readiness.add(ready);
        log("gateway pid " + child.pid() + " READY after " + ready.toMillis() + " ms (console 127.0.0.1:" + httpPort + ")");
        return child;
    }

    /** Stops every child this run started, newest first, each by its own handle; idempotent. */
    private synchronized void stopEverything() {
        stopChildren("target-run", gateway, started);
    }

    /**
     * Stops what a harness run started: the gateway of the moment (may be null) first, then the other
     * children newest first, each by its own handle, and forgets them; a child that fails to stop is
     * reported and the others are still stopped.
     */
    static void stopChildren(String name, GatewayChild gateway, List<AutoCloseable> started) {
        if (gateway != null) {
            gateway.close();
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                System.err.println(name + ": stopping a child failed: " + e);
            }
        }
        started.clear();
    }

    private static void sleepUntil(long startNanos, long offsetMs) throws InterruptedException {
        long remaining = offsetMs - (System.nanoTime() - startNanos) / 1_000_000;
        if (remaining > 0) {
            Thread.sleep(remaining);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    private static void copyQuietly(Path from, Path to) {
        try {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // the broker's log is evidence, not a result
        }
    }

    static void log(String message) {
        System.err.println(Instant.now() + " target-run: " + message);
    }
}
