package io.qubiq.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The skeleton the throughput harnesses (historian, SQL, MongoDB, MQTT, OPC UA) run on, so that each
 * keeps only what is its own: which server it starts, what one timed run does, what it counts and how
 * its table reads. Each is a plain {@code main}, run by its {@code scripts/bench-*}, never by CI.
 *
 * <p><b>Contract.</b> {@link #main(String[], Function)} takes a harness through these steps, in order:
 * <ol>
 *   <li><i>Command line.</i> The harness's factory parses it ({@link CommandLine}) before anything
 *       starts. {@code --help} prints the usage and exits 0; an unknown argument or a bad value prints
 *       one line naming it and exits 1, having started nothing.
 *   <li><i>Header.</i> {@code === <harness> ===}, the start time, nproc and load average, the JVM and
 *       the harness's {@link #optionsLine()}.
 *   <li><i>Scratch.</i> If the harness has a scratch directory (given to the constructor), it is
 *       emptied and created.
 *   <li>{@link #setUp()}: starts the real server(s) and whatever a running gateway would have set up
 *       once (connected clients, started channels).
 *   <li>{@link #measure()}: the warm-up (never reported), the timed runs ({@link #alternate} for
 *       direct against gateway), then the report: the table the docs/performance.md figures come
 *       from, ending with {@link #printLoadLine}. Returns false when an item was lost.
 *   <li>{@link #tearDown()}, always, exactly once: stops what {@code setUp} started. A shutdown hook
 *       runs it too if the JVM is stopped early (Ctrl-C), so no server outlives the harness. Then the
 *       scratch directory is deleted, unless the harness keeps it ({@code --keep}).
 * </ol>
 * Exit code: 0 when {@code measure} returned true, 2 when it returned false, 1 when anything threw
 * ({@code HARNESS FAILED: ...} and the stack trace on stderr).
 *
 * <p><b>Threading.</b> Everything but the shutdown hook runs on the main thread; {@code tearDown} is
 * guarded so that the hook and the main thread never both run it.
 */
abstract class ThroughputHarness {

    private final Optional<Path> scratch;
    private final boolean keepScratch;
    private boolean tornDown;
    private boolean setUpStarted;
    private String loadStart = "";

    /** A harness with no scratch directory. */
    protected ThroughputHarness() {
        this.scratch = Optional.empty();
        this.keepScratch = false;
    }

    /** A harness whose files go to {@code scratch}, emptied first and deleted after unless {@code keep}. */
    protected ThroughputHarness(Path scratch, boolean keep) {
        this.scratch = Optional.of(scratch);
        this.keepScratch = keep;
    }

    /** One line, starting {@code options:}, with every option's value. */
    protected abstract String optionsLine();

    /** Starts the server(s) and what the run keeps for its whole length. */
    protected abstract void setUp() throws Exception;

    /** Warm-up, timed runs and the report; false when an item was lost (exit code 2). */
    protected abstract boolean measure() throws Exception;

    /** Stops what {@link #setUp()} started, whatever part of it did; called once. */
    protected abstract void tearDown() throws Exception;

    /** The load average when the header was printed. */
    protected final String loadStart() {
        return loadStart;
    }

    /** Parses {@code args} with {@code factory} and runs the harness it makes; never returns. */
    static void main(String[] args, Function<String[], ? extends ThroughputHarness> factory) {
        ThroughputHarness harness;
        try {
            harness = factory.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bad arguments: " + e.getMessage());
            System.exit(1);
            return;
        }
        System.exit(harness.run());
    }

    private int run() {
        Thread hook = new Thread(this::tearDownOnce, "harness-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
        int status;
        try {
            printHeader();
            if (scratch.isPresent()) {
                BenchFiles.deleteQuietly(scratch.get());
                Files.createDirectories(scratch.get());
            }
            synchronized (this) {
                setUpStarted = true;
            }
            setUp();
            status = measure() ? 0 : 2;
        } catch (Throwable t) {
            System.err.println("HARNESS FAILED: " + t);
            t.printStackTrace();
            status = 1;
        } finally {
            tearDownOnce();
            if (!keepScratch) {
                scratch.ifPresent(BenchFiles::deleteQuietly);
            }
        }
        Runtime.getRuntime().removeShutdownHook(hook);
        return status;
    }

    private synchronized void tearDownOnce() {
        if (tornDown || !setUpStarted) {
            return;
        }
        tornDown = true;
        try {
            tearDown();
        } catch (Exception e) {
            System.err.println("tearing down: " + e);
        }
    }

    private void printHeader() {
        loadStart = Machine.loadAverage();
        Runtime rt = Runtime.getRuntime();
        System.out.println("=== " + getClass().getSimpleName() + " ===");
        System.out.printf("started %s UTC; nproc %d; load average %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS),
                rt.availableProcessors(), loadStart);
        System.out.printf("JVM %s %s (%s); max heap %.2f GiB; GC %s; args %s%n", System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("os.arch"),
                rt.maxMemory() / (double) (1L << 30),
                ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList(),
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        System.out.println(optionsLine());
    }

    // ------------------------------------------------------------------------------------------ for measure()

    /** One timed scenario of one repetition: what {@link #alternate} runs. */
    @FunctionalInterface
    interface Scenario<R> {
        R run(int repetition) throws Exception;
    }

    /**
     * Runs {@code direct} and {@code gateway} once per repetition 1..{@code repetitions}, direct first
     * in odd repetitions and gateway first in even ones, so that a trend in the machine's load favours
     * neither; {@code then} runs after both in every repetition. Returns the runs in the order run.
     */
    static <R> List<R> alternate(int repetitions, Scenario<R> direct, Scenario<R> gateway, List<Scenario<R>> then)
            throws Exception {
        List<R> runs = new ArrayList<>();
        for (int r = 1; r <= repetitions; r++) {
            if (r % 2 == 1) {
                runs.add(direct.run(r));
                runs.add(gateway.run(r));
            } else {
                runs.add(gateway.run(r));
                runs.add(direct.run(r));
            }
            for (Scenario<R> scenario : then) {
                runs.add(scenario.run(r));
            }
        }
        return runs;
    }

    /** {@link #alternate(int, Scenario, Scenario, List)} with nothing after the pair. */
    static <R> List<R> alternate(int repetitions, Scenario<R> direct, Scenario<R> gateway) throws Exception {
        return alternate(repetitions, direct, gateway, List.of());
    }

    /** The last line of every report: the load average at the start and now, and nproc. */
    static void printLoadLine(String loadStart, String loadEnd) {
        System.out.printf("%nload average at start %s, at end %s; nproc %d%n", loadStart, loadEnd,
                Runtime.getRuntime().availableProcessors());
    }

    /** A progress line: {@code [time] message}. */
    static void log(String format, Object... args) {
        System.out.printf("[%s] %s%n", Instant.now().truncatedTo(ChronoUnit.SECONDS), String.format(format, args));
    }
}
