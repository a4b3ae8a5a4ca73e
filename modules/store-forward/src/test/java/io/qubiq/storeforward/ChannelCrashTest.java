package io.qubiq.storeforward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md rule 2 against a real crash: a child JVM ({@link ChannelCrashChild}) runs a channel on
 * a directory in front of a file destination that flushes every write, with producers submitting
 * numbered items while the destination goes down and up; the parent kills it with {@code SIGKILL}
 * ({@link Process#destroyForcibly()}) at a random moment, preferably while a backlog is draining,
 * and starts the next child on the same directory, numbering on from the highest item reported.
 * Cycles alternate the fast path on and off at random. A last child drains with the destination up.
 *
 * <p>What must hold, read from the destination file:
 * <ul>
 *   <li>every item a child reported buffered or delivered ({@code submit} returned normally with
 *       anything but {@code HANDED_OFF}) is there: nothing the channel answered for is ever lost; an
 *       item handed off to the forwarder's memory may be lost by the kill (issue 19's contract: a
 *       {@code kill -9} loses at most what the hand-off holds) but, if it arrives, arrives in order;
 *   <li>per producer, first occurrences are in submission order;
 *   <li>every item there was submitted: reported accepted, or in the one batch per producer that
 *       was in flight when its child was killed;
 *   <li>duplicates only come from replaying what was delivered but whose acknowledgement did not
 *       reach the buffer: each run of duplicates starts exactly at a crash point (the file's line
 *       count when a child was killed), repeats line for line the lines just before that point, and
 *       is at most one forwarder batch long.
 * </ul>
 * A process kill keeps the page cache, so this proves the ack-after-flush order and recovery of the
 * buffer, not survival of power loss.
 */
class ChannelCrashTest {

    private static final int CYCLES = 12;
    private static final int PRODUCERS = 3;

    @TempDir
    Path temp;

    private record Cycle(boolean fastPath, long crashLine, long backlogAtKill, String stateAtKill, int acceptedBatches) {
    }

    @Test
    void acceptedItemsSurviveKillNineMidDrainAndOnlyTheUnacknowledgedTailIsReplayed() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Path dir = temp.resolve("channel");
        Files.createDirectories(dir);
        Path destination = dir.resolve("destination.txt");

        long[] nextStart = new long[PRODUCERS];
        long[] highestAccepted = new long[PRODUCERS];
        java.util.Arrays.fill(highestAccepted, -1);
        BitSet[] accepted = new BitSet[PRODUCERS];
        BitSet[] handedOff = new BitSet[PRODUCERS];
        // per producer: the numbers a killed child may have submitted without reporting them
        List<List<long[]>> inFlightWindows = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            accepted[p] = new BitSet();
            handedOff[p] = new BitSet();
            inFlightWindows.add(new ArrayList<>());
        }
        List<Cycle> cycles = new ArrayList<>();
        boolean firstFastPath = random.nextBoolean();

        for (int cycle = 0; cycle < CYCLES; cycle++) {
            String context = "seed " + seed + ", cycle " + cycle;
            boolean fastPath = cycle == 0 ? firstFastPath : cycle == 1 ? !firstFastPath : random.nextBoolean();
            long killAfterMillis = 150 + random.nextInt(900);
            StringBuilder starts = new StringBuilder();
            for (int p = 0; p < PRODUCERS; p++) {
                starts.append(p == 0 ? "" : ",").append(nextStart[p]);
            }
            Child child = Child.start(dir, "run", fastPath, random.nextLong(), starts.toString(), context);
            String[] lastStatus;
            try {
                child.awaitReady();
                long readyAt = System.nanoTime();
                // kill at a random moment, preferably while a backlog is buffered (and so being drained)
                await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5)).until(() -> {
                    long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - readyAt);
                    String[] status = child.lastStatus();
                    boolean backlog = status != null && Long.parseLong(status[1]) > 0;
                    boolean draining = backlog && status[2].equals(ChannelState.DRAINING.name());
                    return elapsed >= killAfterMillis && (draining || backlog && elapsed >= killAfterMillis + 500
                            || elapsed >= killAfterMillis + 1_500);
                });
                lastStatus = child.lastStatus();
            } finally {
                child.kill();
            }

            for (String line : child.lines) {
                String[] parts = line.split(" ");
                switch (parts[0]) {
                    case "accepted" -> {
                        int p = Integer.parseInt(parts[1]);
                        long first = Long.parseLong(parts[2]);
                        long last = Long.parseLong(parts[3]);
                        assertThat(first).as("%s: producer %d numbers on without gaps", context, p)
                                .isEqualTo(Math.max(highestAccepted[p] + 1, nextStart[p]));
                        // handed off: in the forwarder's memory, which a kill -9 may lose (the hand-off's
                        // contract); they count as submitted, not as items that must arrive
                        (parts[4].equals("HANDED_OFF") ? handedOff : accepted)[p].set((int) first, (int) last + 1);
                        highestAccepted[p] = last;
                    }
                    case "ready", "status" -> {
                    }
                    default -> fail(context + ": unexpected child line '" + line + "'");
                }
            }
            for (int p = 0; p < PRODUCERS; p++) {
                long lastReported = Math.max(highestAccepted[p] + 1, nextStart[p]) - 1;
                inFlightWindows.get(p).add(new long[] {lastReported + 1, lastReported + ChannelCrashChild.BATCH_MAX});
                nextStart[p] = lastReported + 1 + ChannelCrashChild.BATCH_MAX;
            }
            long crashLine = completeLines(destination);
            int batches = (int) child.lines.stream().filter(l -> l.startsWith("accepted")).count();
            cycles.add(new Cycle(fastPath, crashLine, Long.parseLong(lastStatus[1]), lastStatus[2], batches));
            System.out.printf("%s: fast path %s, killed after %d accepted batches with %s items buffered (%s),"
                    + " destination at %d lines%n", context, fastPath, batches, lastStatus[1], lastStatus[2], crashLine);
        }

        Child drainer = Child.start(dir, "drain", true, random.nextLong(), "0,0,0", "seed " + seed + ", final drain");
        try {
            assertThat(drainer.process.waitFor(30, TimeUnit.SECONDS)).as("seed %d: the final drain ends", seed).isTrue();
        } finally {
            drainer.kill();
        }
        assertThat(drainer.process.exitValue()).as("seed %d: final drain exit", seed).isZero();
        assertThat(drainer.lines).as("seed %d: final drain report", seed).contains("drained 0");

        verify(seed, Files.readAllLines(destination, StandardCharsets.UTF_8), accepted, handedOff, inFlightWindows,
                cycles);
    }

    private static void verify(long seed, List<String> lines, BitSet[] accepted, BitSet[] handedOff,
                               List<List<long[]>> inFlight,
                               List<Cycle> cycles) {
        TreeSet<Long> crashPoints = new TreeSet<>();
        cycles.forEach(c -> crashPoints.add(c.crashLine()));
        int batchMax = ChannelCrashChild.config(true, false).batchMaxItems();

        Map<String, Integer> firstSeen = new HashMap<>();
        long[] lastFirst = new long[PRODUCERS];
        java.util.Arrays.fill(lastFirst, -1);
        BitSet[] present = new BitSet[PRODUCERS];
        for (int p = 0; p < PRODUCERS; p++) {
            present[p] = new BitSet();
        }
        int duplicates = 0;
        int runStart = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String where = "seed " + seed + ", destination line " + (i + 1) + " '" + line + "'";
            String[] parts = line.split(" ");
            assertThat(parts).as(where).hasSize(2);
            int p = Integer.parseInt(parts[0]);
            long n = Long.parseLong(parts[1]);
            Integer earlier = firstSeen.putIfAbsent(line, i);
            if (earlier == null) {
                runStart = -1;
                assertThat(n).as(where + ": first occurrences in order per producer").isGreaterThan(lastFirst[p]);
                lastFirst[p] = n;
                present[p].set((int) n);
                boolean submitted = accepted[p].get((int) n) || handedOff[p].get((int) n)
                        || inFlight.get(p).stream().anyMatch(w -> n >= w[0] && n <= w[1]);
                assertThat(submitted).as(where + ": was submitted (accepted, or in flight at a kill)").isTrue();
                continue;
            }
            duplicates++;
            if (runStart < 0 || crashPoints.contains((long) i)) {
                assertThat(crashPoints).as(where + ": a duplicate run must start at a crash point").contains((long) i);
                runStart = i;
            }
            int offset = i - runStart;
            int runLength = 0;
            while (runStart + runLength < lines.size() && firstSeen.containsKey(lines.get(runStart + runLength))
                    && firstSeen.get(lines.get(runStart + runLength)) < runStart + runLength
                    && (runLength == 0 || !crashPoints.contains((long) runStart + runLength))) {
                runLength++;
            }
            assertThat(runLength).as(where + ": a replay is at most one forwarder batch").isLessThanOrEqualTo(batchMax);
            assertThat(runStart - runLength + offset).as(where + ": replay reaches before the start").isNotNegative();
            assertThat(line).as(where + ": the replay after a crash repeats the lines just before it")
                    .isEqualTo(lines.get(runStart - runLength + offset));
        }

        long acceptedItems = 0;
        for (int p = 0; p < PRODUCERS; p++) {
            BitSet missing = (BitSet) accepted[p].clone();
            missing.andNot(present[p]);
            assertThat(missing.stream().limit(20).boxed().toList())
                    .as("seed %d: producer %d's accepted items missing from the destination", seed, p).isEmpty();
            acceptedItems += accepted[p].cardinality();
        }
        long killsWithBacklog = cycles.stream().filter(c -> c.backlogAtKill() > 0).count();
        long killsWhileDraining = cycles.stream().filter(c -> c.backlogAtKill() > 0
                && c.stateAtKill().equals(ChannelState.DRAINING.name())).count();
        System.out.printf("seed %d: %d accepted items, %d destination lines, %d duplicates, %d of %d kills with a"
                + " backlog, %d of them while draining%n", seed, acceptedItems, lines.size(), duplicates,
                killsWithBacklog, cycles.size(), killsWhileDraining);
        assertThat(acceptedItems).as("seed %d: items accepted over all cycles", seed).isGreaterThan(1_000);
        assertThat(killsWithBacklog).as("seed %d: kills that found a backlog to drain", seed)
                .isGreaterThanOrEqualTo(CYCLES / 2);
        assertThat(cycles.stream().map(Cycle::fastPath).distinct().count()).as("fast path on and off").isEqualTo(2);
        assertThat(duplicates).as("seed %d: at most one batch replayed per crash", seed)
                .isLessThanOrEqualTo(CYCLES * batchMax);
    }

    /** Lines that end with a newline; a line cut off by the kill is not counted. */
    private static long completeLines(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        long length;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            length = FileDestinationSink.completeLinesLength(channel);
        }
        byte[] bytes = Files.readAllBytes(file);
        long count = 0;
        for (int i = 0; i < length; i++) {
            if (bytes[i] == '\n') {
                count++;
            }
        }
        return count;
    }

    /**
     * One child JVM. Its stdout goes to a file rather than a pipe, so that everything it wrote before
     * the kill can still be read afterwards; the parent reads the file on, whole lines only.
     */
    private static final class Child {
        final Process process;
        final List<String> lines = new ArrayList<>();
        final String context;
        final Path log;
        final Path out;
        private long position;
        private final java.io.ByteArrayOutputStream partial = new java.io.ByteArrayOutputStream();
        private String[] lastStatus;

        private Child(Process process, String context, Path log, Path out) {
            this.process = process;
            this.context = context;
            this.log = log;
            this.out = out;
        }

        static Child start(Path dir, String mode, boolean fastPath, long seed, String starts, String context)
                throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path log = dir.getParent().resolve("child-stderr.log");
            Path out = Files.createTempFile(dir.getParent(), "child-", ".out");
            Process process = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                    "-cp", System.getProperty("java.class.path"), ChannelCrashChild.class.getName(),
                    dir.toString(), mode, Boolean.toString(fastPath), Long.toString(seed), starts)
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectOutput(out.toFile())
                    .start();
            return new Child(process, context, log, out);
        }

        /** Reads what the child wrote since the last call; keeps whole reports only. */
        void poll() throws IOException {
            byte[] fresh;
            try (FileChannel file = FileChannel.open(out, StandardOpenOption.READ)) {
                long size = file.size();
                if (size <= position) {
                    return;
                }
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate((int) (size - position));
                while (buffer.hasRemaining() && file.read(buffer, position + buffer.position()) > 0) {
                    // keep reading
                }
                fresh = java.util.Arrays.copyOf(buffer.array(), buffer.position());
                position += fresh.length;
            }
            for (byte b : fresh) {
                if (b != '\n') {
                    partial.write(b);
                    continue;
                }
                String line = partial.toString(StandardCharsets.UTF_8);
                partial.reset();
                // a report cut off by the kill lacks its terminator and says nothing
                if (line.startsWith(ChannelCrashChild.PREFIX) && line.endsWith(" ;")) {
                    String report = line.substring(ChannelCrashChild.PREFIX.length(), line.length() - 2);
                    if (report.startsWith("status ")) {
                        lastStatus = report.split(" ");
                    } else {
                        lines.add(report);
                    }
                }
            }
        }

        String[] lastStatus() throws IOException {
            poll();
            return lastStatus;
        }

        void awaitReady() {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(5)).until(() -> {
                if (!process.isAlive()) {
                    poll();
                    fail(context + ": the child exited with " + process.exitValue() + " before the kill; see " + log
                            + ": " + Files.readString(log));
                }
                return lastStatus() != null && lines.stream().anyMatch(l -> l.startsWith("ready"));
            });
        }

        void kill() throws InterruptedException, IOException {
            process.destroyForcibly();
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as(context + ": child died").isTrue();
            poll();
        }
    }
}
