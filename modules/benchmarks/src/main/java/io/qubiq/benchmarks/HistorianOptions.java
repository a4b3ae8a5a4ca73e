package io.qubiq.benchmarks;

import java.nio.file.Path;

/** The command line of {@link HistorianThroughputHarness} ({@code --help} lists it). */
final class HistorianOptions {
    long samples = 1_000_000;
    long backlog = 10_000_000;
    int repetitions = 9;
    int drainRepetitions = 3;
    long drainSlice = 1_000_000;
    long warmup = 1_000_000;
    int tags = 300;
    int batch = 1000;
    int liveTail = -1;
    boolean drain = true;
    boolean keep = false;
    Path dir = Path.of(System.getenv().getOrDefault("BENCH_DIR", "/work/bench-tmp"), "historian");

    static final String USAGE = """
            HistorianThroughputHarness [--samples N] [--backlog M] [--repetitions R] [--warmup W]
                [--drain-repetitions D] [--drain-slice S] [--tags T] [--batch B] [--live-tail L]
                [--dir DIR] [--no-drain] [--keep]
              N  samples per throughput repetition (default 1m); M drain backlog (default 10m);
              R  repetitions of direct+gateway (default 9); W warm-up samples, also the warm-up drain's (default 1m, 0 = none);
              D  repetitions of drain+direct, each on a freshly restarted QuestDB (default 3);
              S  drain and its direct baseline timed in alternating slices of S rows (default 1m);
                 0 = the whole drain, then the whole baseline;
              T  tags (default 300); B rows per flush / historian batch / forwarder batch (1000);
              L  live-tail samples per tag (default: the historian's default, 1000; 0 = none);
              DIR scratch directory, emptied first and deleted after (unless --keep).
              Counts accept k and m suffixes: 500k, 10m.""";

    static HistorianOptions parse(String[] args) {
        HistorianOptions o = new HistorianOptions();
        CommandLine line = new CommandLine(args, USAGE);
        while (line.next()) {
            switch (line.flag()) {
                case "--samples" -> o.samples = line.count();
                case "--backlog" -> o.backlog = line.count();
                case "--repetitions" -> o.repetitions = line.integer();
                case "--drain-repetitions" -> o.drainRepetitions = line.integer();
                case "--drain-slice" -> o.drainSlice = line.count();
                case "--warmup" -> o.warmup = line.count();
                case "--tags" -> o.tags = line.integer();
                case "--batch" -> o.batch = line.integer();
                case "--live-tail" -> o.liveTail = line.integer();
                case "--dir" -> o.dir = line.path();
                case "--no-drain" -> o.drain = false;
                case "--keep" -> o.keep = true;
                default -> throw line.unknown();
            }
        }
        if (o.samples < 1 || o.backlog < 1 || o.repetitions < 1 || o.drainRepetitions < 1 || o.tags < 1
                || o.batch < 1 || o.drainSlice < 0) {
            throw new IllegalArgumentException("counts must be positive");
        }
        return o;
    }
}
