package io.qubiq.benchmarks.targetrun;

import io.qubiq.testkit.mqtt.Mosquitto;
import io.qubiq.testkit.questdb.QuestDbServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Issue 20's start-to-ready target (a plain main, run by {@code scripts/ready-with-backlog}, never by
 * CI): how long the packaged gateway takes from its start to {@code /health} READY, with one OPC UA
 * connection of {@code --tags} items, one MQTT connection and a historian backlog of {@code
 * --backlog-mib} on disk, against an external QuestDB (no embedded one).
 *
 * <p>In order: QuestDB, mosquitto and the OPC UA bench server ({@code --fill-tags} variables) as child
 * processes on free loopback ports. <i>Fill:</i> the gateway runs with every variable as a tag and its
 * historian pointed at a closed port, so each changing value goes to the historian's buffer, until the
 * buffer directory holds the backlog; it is then stopped (SIGTERM). <i>Starts:</i> the gateway is
 * started {@code --starts} times on the same data directory with {@code --tags} items and QuestDB up,
 * each timed to READY and then ended alternately by SIGTERM and SIGKILL, so every second start recovers
 * the buffer after a crash. The backlog drains a little during each start. One report on stdout.
 *
 * <p>Exit code 0 when every start was READY within the target (5 s), 2 when one was not, 1 when the
 * run failed. Every child is stopped by its own handle at the end (also on Ctrl-C).
 */
public final class ReadinessRun {

    private static final Duration TARGET = Duration.ofSeconds(5);
    private static final Duration READY_LIMIT = Duration.ofMinutes(3);
    private static final Duration FILL_LIMIT = Duration.ofMinutes(15);

    private final TargetOptions options;
    private final int fillTags;
    private final long backlogBytes;
    private final int starts;
    private final List<AutoCloseable> started = new ArrayList<>();
    private volatile GatewayChild gateway;

    private ReadinessRun(TargetOptions options, int fillTags, long backlogBytes, int starts) {
        this.options = options;
        this.fillTags = fillTags;
        this.backlogBytes = backlogBytes;
        this.starts = starts;
    }

    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>();
        int fillTags = 10_000;
        long backlogMib = 1024;
        int starts = 4;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--fill-tags" -> fillTags = Integer.parseInt(args[++i]);
                case "--backlog-mib" -> backlogMib = Long.parseLong(args[++i]);
                case "--starts" -> starts = Integer.parseInt(args[++i]);
                default -> rest.add(args[i]);
            }
        }
        TargetOptions options = TargetOptions.parse(rest.toArray(String[]::new));
        ReadinessRun run = new ReadinessRun(options, fillTags, backlogMib << 20, starts);
        TargetRun.runAndExit("ready-with-backlog", run::run, run::stopEverything);
    }

    private int run() throws Exception {
        Path work = Files.createDirectories(options.workDir.toAbsolutePath());
        QuestDbServer questDb = QuestDbServer.start(work.resolve("questdb"));
        started.add(questDb);
        Mosquitto mosquitto = Mosquitto.start(Mosquitto.Options.defaults().withPersistence());
        started.add(mosquitto);
        BenchServerChild server = BenchServerChild.start(work, fillTags, options.intervalMs, options.serverHeap);
        started.add(server);
        Path dataDir = work.resolve("gateway-data");
        Path backlogDir = dataDir.resolve("connections").resolve("historian");
        int httpPort = TargetRun.freePort();

        int tags = options.tags;
        options.tags = fillTags;
        options.historianMaxBytes = Math.max(backlogBytes * 2, 1L << 30);
        Path fillConfig = GatewayConfigWriter.write(work.resolve("fill.yaml"), options, server.endpoint(),
                mosquitto.port(), TargetRun.freePort());
        TargetRun.log("fill: " + fillTags + " tags every " + options.intervalMs + " ms into a historian whose QuestDB"
                + " port is closed, until " + (backlogBytes >> 20) + " MiB are buffered");
        gateway = GatewayChild.start(options, fillConfig, dataDir, httpPort, 0);
        server.startUpdates();
        long deadline = System.nanoTime() + FILL_LIMIT.toNanos();
        while (bytesUnder(backlogDir) < backlogBytes) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the backlog did not reach " + backlogBytes + " bytes within " + FILL_LIMIT
                        + " (" + bytesUnder(backlogDir) + " now); see " + gateway.output());
            }
            Thread.sleep(1000);
        }
        server.stopUpdates();
        TargetRun.log("backlog reached (" + (bytesUnder(backlogDir) >> 20) + " MiB on disk); the filling gateway's "
                + ProcessSampler.residentSize(gateway.pid()));
        gateway.close();
        gateway = null;

        options.tags = tags;
        Path config = GatewayConfigWriter.write(work.resolve("gateway.yaml"), options, server.endpoint(),
                mosquitto.port(), questDb.httpPort());
        StringBuilder report = new StringBuilder("ready-with-backlog: " + tags + " OPC UA items, one MQTT connection,"
                + " external QuestDB up, target " + TARGET.toMillis() + " ms\n");
        boolean allMet = true;
        for (int i = 1; i <= starts; i++) {
            boolean afterCrash = i % 2 == 0;
            long backlog = bytesUnder(backlogDir);
            gateway = GatewayChild.start(options, config, dataDir, httpPort, i);
            Duration ready = gateway.awaitReady(READY_LIMIT);
            allMet &= ready.compareTo(TARGET) <= 0;
            report.append(String.format("  start %d (%s): READY after %,d ms with %,d MiB buffered%n", i,
                    afterCrash ? "after kill -9" : "after an orderly stop", ready.toMillis(), backlog >> 20));
            if (i < starts && i % 2 == 1) {
                gateway.kill(); // the next start recovers the buffer after a crash
            } else {
                gateway.close();
            }
            gateway = null;
        }
        System.out.print(report);
        Files.writeString(work.resolve("report.txt"), report.toString());
        return allMet ? 0 : 2;
    }

    /** Bytes of the files below {@code dir} (the historian channel's segments, quarantine and markers). */
    private static long bytesUnder(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException gone) {
                    return 0; // a segment released meanwhile
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }

    private synchronized void stopEverything() {
        TargetRun.stopChildren("ready-with-backlog", gateway, started);
    }
}
