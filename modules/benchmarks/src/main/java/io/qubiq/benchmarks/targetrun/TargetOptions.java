package io.qubiq.benchmarks.targetrun;

import java.nio.file.Path;

/**
 * The command line of {@link TargetRun}; the defaults are issue 20's target (10,000 OPC UA tags every
 * 100 ms, 2,000 MQTT messages/s over 200 topics, 10 minutes). Mutable only while parsing.
 */
final class TargetOptions {

    enum Scenario { QUIET, RESTARTS }

    int tags = 10_000;
    long intervalMs = 100;
    int mqttRate = 2_000;
    int topics = 200;
    int seconds = 600;
    Scenario scenario = Scenario.QUIET;
    /** OPC UA queue_size of the tags; 0 leaves it to the connector's default (two publishing intervals). */
    int opcuaQueue = 0;
    String serverHeap = "1g";
    /** The historian channel's max_bytes; 0 leaves it to the default (1 GiB). */
    long historianMaxBytes = 0;
    /** The historian's queue_capacity_values; 0 leaves it to the default (100,000). */
    int historianQueue = 0;
    Path workDir;
    Path repoRoot = Path.of(".");
    Path jar;

    static final String USAGE = """
            TargetRun [--tags N] [--interval-ms I] [--mqtt-rate M] [--topics T] [--seconds S]
                [--scenario quiet|restarts] [--opcua-queue Q] [--historian-queue V] [--server-heap 1g]
                --work-dir DIR --repo-root DIR [--jar gateway-app/target/qubiq-gateway.jar]
              --tags         OPC UA Int64 variables, all changing every --interval-ms (default 10000, 100 ms)
              --mqtt-rate    MQTT messages per second over --topics topics at QoS 1 (default 2000 over 200)
              --seconds      length of the run (default 600)
              --scenario     quiet, or restarts: mosquitto stopped for 5 s at 1/3, the gateway killed (-9)
                             at 2/3 and started again 10 s later
              --opcua-queue  the tags' queue_size (default: left out, the connector's default)
              --historian-queue  the historian's queue_capacity_values (default: left out, 100,000);
                             with more than 100,000 also set QUBIQ_HEAP (160 B per queued value)
            """;

    static TargetOptions parse(String[] args) {
        TargetOptions o = new TargetOptions();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--tags" -> o.tags = positive(arg, value(args, ++i));
                case "--interval-ms" -> o.intervalMs = positive(arg, value(args, ++i));
                case "--mqtt-rate" -> o.mqttRate = positive(arg, value(args, ++i));
                case "--topics" -> o.topics = positive(arg, value(args, ++i));
                case "--seconds" -> o.seconds = positive(arg, value(args, ++i));
                case "--opcua-queue" -> o.opcuaQueue = Integer.parseInt(value(args, ++i));
                case "--historian-queue" -> o.historianQueue = positive(arg, value(args, ++i));
                case "--server-heap" -> o.serverHeap = value(args, ++i);
                case "--work-dir" -> o.workDir = Path.of(value(args, ++i));
                case "--repo-root" -> o.repoRoot = Path.of(value(args, ++i));
                case "--jar" -> o.jar = Path.of(value(args, ++i));
                case "--scenario" -> {
                    String name = value(args, ++i);
                    o.scenario = switch (name) {
                        case "quiet" -> Scenario.QUIET;
                        case "restarts" -> Scenario.RESTARTS;
                        default -> throw new IllegalArgumentException("--scenario: expected quiet or restarts, got "
                                + name);
                    };
                }
                case "-h", "--help" -> {
                    System.out.println(USAGE);
                    System.exit(0);
                }
                default -> throw new IllegalArgumentException("unknown argument " + arg + " (try --help)");
            }
        }
        if (o.workDir == null) {
            throw new IllegalArgumentException("--work-dir is required (try --help)");
        }
        if (o.jar == null) {
            o.jar = o.repoRoot.resolve("gateway-app/target/qubiq-gateway.jar");
        }
        if (o.seconds < 30 && o.scenario == Scenario.RESTARTS) {
            throw new IllegalArgumentException("--seconds: the restarts scenario needs at least 30, got " + o.seconds);
        }
        return o;
    }

    /** Microseconds between two rounds of the publisher, each round one message on every topic. */
    long publishPeriodMicros() {
        return Math.max(1, (long) topics * 1_000_000L / mqttRate);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static int positive(String key, String text) {
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": expected a whole number, got " + text);
        }
        if (n <= 0) {
            throw new IllegalArgumentException(key + ": expected a number above 0, got " + text);
        }
        return n;
    }
}
