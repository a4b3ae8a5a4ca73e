package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.qubiq.buffer.OverflowPolicy;
import io.qubiq.buffer.SegmentedDiskBuffer;
import io.qubiq.storeforward.ChannelState;
import io.qubiq.storeforward.Liveness;
import io.qubiq.storeforward.StoreForwardChannel;
import io.qubiq.storeforward.quarantine.FileQuarantineStore;
import io.qubiq.testkit.RecordingEvents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 that lands inside the audit journal's writes (issue 18 F), as {@code BufferTortureTest}
 * does for the buffer. A child JVM ({@link JournalCrashChild}) journals numbered entries in batches
 * of 1 to 5 through the audit channel (disk buffer, file quarantine, refuse policy, synchronous
 * submit) into the {@link LocalAuditStore}, by the fast path or the buffered path at random, and
 * reports each batch after its {@code submit} returned on a file (flushed per line). The parent
 * kills it with SIGKILL after a seeded random delay: one cycle in eight during its start (inside
 * the journal's and the buffer's recovery), one in sixteen up to {@code
 * journal.torture.longestDelayMs} after READY, the rest within 300 ms of READY. After every kill
 * the parent restarts the store and the channel in-process as the gateway would, lets the buffer
 * drain into the journal, and reads the whole journal:
 * <ul>
 *   <li>neither the journal's nor the channel's open throws;
 *   <li>every entry of a batch whose submit returned is there (acknowledged items lost counts the
 *       ones that are not), in this and every earlier cycle;
 *   <li>no entry is there twice, and every entry there was submitted (reported, or in the one batch
 *       in flight at the kill);
 *   <li>sequence numbers increase in journaling order and are never reused: a sequence number seen
 *       after an earlier restart still names the same entry;
 *   <li>nothing is quarantined;
 *   <li>the restart reports no loss (no {@code DataLoss} event): a kill keeps the page cache, so
 *       a loss report would be a false alarm.
 * </ul>
 * CI runs {@value #CI_CYCLES} cycles; {@code scripts/torture} runs more through {@code
 * journal.torture.cycles}, {@code journal.torture.minutes}, {@code journal.torture.seed} and {@code
 * journal.torture.datasheet}. A process kill keeps the page cache: power loss is {@code
 * JournalPowerLossTest}'s subject.
 */
class JournalTortureTest {

    private static final int CI_CYCLES = 20;
    /** Numbers left free after each child's highest reported entry: its batch in flight and a gap. */
    private static final int GAP = 100;

    @TempDir
    Path temp;

    private int cycles;
    private int insideStart;
    private int lost;
    private int duplicates;
    private int reused;
    private int strangers;
    private int quarantined;
    private int failedOpens;
    private int falseLossReports;
    private int childErrors;
    private long entriesChecked;
    private final List<Double> recoveryMs = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    @Test
    void everySubmittedBatchIsJournaledOnceAndNoSequenceIsReusedWhenKillNineLandsInsideWrites()
            throws Exception {
        long seed = Long.getLong("journal.torture.seed", System.nanoTime());
        int maxCycles = Integer.getInteger("journal.torture.cycles", CI_CYCLES);
        double minutes = Double.parseDouble(System.getProperty("journal.torture.minutes", "0"));
        long budgetNanos = minutes > 0 ? (long) (minutes * 60e9) : Long.MAX_VALUE;
        int longestDelayMs = Integer.getInteger("journal.torture.longestDelayMs", 1_000);
        Random random = new Random(seed);
        Path dir = temp.resolve("audit");
        Files.createDirectories(dir);
        BitSet accepted = new BitSet();
        BitSet mayBeThere = new BitSet();
        Map<Long, Long> itemBySeq = new HashMap<>();
        long start = 0;
        long started = System.nanoTime();

        for (int cycle = 0; cycle < maxCycles && System.nanoTime() - started < budgetNanos; cycle++) {
            int kind = random.nextInt(16);
            boolean duringStart = kind < 2;
            int delayMs = duringStart ? random.nextInt(1_500)
                    : kind == 2 ? random.nextInt(longestDelayMs) : random.nextInt(300);
            boolean fastPath = random.nextBoolean();
            String context = "seed " + seed + ", cycle " + cycle + " (" + (fastPath ? "fast" : "buffered")
                    + " path, killed " + delayMs + " ms after " + (duringStart ? "start" : "READY") + ")";
            List<String> lines = runAndKill(dir, fastPath, random.nextLong(), start, duringStart, delayMs,
                    context);
            cycles++;
            long highest = start - 1;
            boolean ready = false;
            for (String line : lines) {
                if (line.equals("ready")) {
                    ready = true;
                } else if (line.startsWith("accepted ")) {
                    String[] parts = line.split(" ");
                    long first = Long.parseLong(parts[1]);
                    long last = Long.parseLong(parts[2]);
                    if (first != highest + 1) {
                        problems.add(context + ": the child reported " + line + " after " + highest);
                    }
                    accepted.set((int) first, (int) last + 1);
                    highest = last;
                } else {
                    childErrors++;
                    problems.add(context + ": child reported '" + line + "'");
                }
            }
            if (!ready) {
                insideStart++;
            }
            mayBeThere.set((int) start, (int) highest + 1 + 5);
            start = highest + 1 + GAP;

            if (restartAndDrain(dir, context)) {
                check(dir, accepted, mayBeThere, itemBySeq, context);
            } else {
                Files.move(dir, temp.resolve("audit-failed-" + cycle));
                Files.createDirectories(dir);
                accepted.clear();
                mayBeThere.clear();
                itemBySeq.clear();
            }
        }

        String line = line(seed);
        System.out.println(line);
        problems.stream().limit(50).forEach(System.out::println);
        String datasheet = System.getProperty("journal.torture.datasheet");
        if (datasheet != null) {
            Files.writeString(Path.of(datasheet), line + System.lineSeparator(), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        assertThat(problems).as(line).isEmpty();
        assertThat(cycles).as(line).isPositive();
        assertThat(accepted.cardinality()).as("enough entries to mean something").isGreaterThan(20);
    }

    /**
     * Opens the journal and the audit channel as the gateway does after the crash, waits until the
     * buffer has drained into the journal and stops the channel.
     *
     * @return false when an open threw (counted and recorded)
     */
    private boolean restartAndDrain(Path dir, String context) throws Exception {
        LocalAuditStore store = JournalCrashChild.store(dir);
        long openStarted = System.nanoTime();
        StoreForwardChannel<JournalEntry> channel;
        RecordingEvents events = new RecordingEvents();
        try {
            store.open();
            channel = new StoreForwardChannel<>("audit", JournalCrashChild.channelConfig(false),
                    OverflowPolicy.REFUSE, dir.resolve("buffer"), SegmentedDiskBuffer::open,
                    maxBytes -> FileQuarantineStore.open(dir.resolve("quarantine"), maxBytes), store,
                    new JournalEntryCodec(), Liveness.alwaysUnknown(), events,
                    Clock.systemUTC()).synchronousSubmit();
            channel.start();
        } catch (Exception | Error e) {
            failedOpens++;
            problems.add(context + ": open failed: " + e);
            store.close();
            return false;
        }
        recoveryMs.add((System.nanoTime() - openStarted) / 1e6);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((channel.status().bufferedItems() > 0 || channel.status().state() != ChannelState.IDLE)
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            if (channel.status().bufferedItems() > 0) {
                problems.add(context + ": the buffer did not drain in 60 s: " + channel.status());
            }
            if (channel.status().quarantineItems() > 0) {
                quarantined += (int) channel.status().quarantineItems();
                problems.add(context + ": " + channel.status().quarantineItems() + " entries quarantined");
            }
        } finally {
            channel.stop();
            store.close();
        }
        if (!events.losses().isEmpty()) {
            // a process kill loses nothing (the check below proves it), so any loss report is a
            // false alarm: the buffer's roll once named a segment in seq.floor before its rename
            falseLossReports += events.losses().size();
            problems.add(context + ": the restart reported a loss after a kill that lost nothing: "
                    + events.losses());
        }
        return true;
    }

    private void check(Path dir, BitSet accepted, BitSet mayBeThere, Map<Long, Long> itemBySeq,
                       String context) {
        List<Long> items = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        try (LocalAuditStore store = JournalCrashChild.store(dir)) {
            JournalQuery query = JournalQuery.newest(1000);
            while (true) {
                JournalPage page = store.query(query);
                for (StoredEntry entry : page.entries()) {
                    items.add(Long.parseLong(entry.entry().event().target().substring("item/".length())));
                    seqs.add(entry.seq());
                }
                if (page.next().isEmpty()) {
                    break;
                }
                query = query.withBefore(page.next().getAsLong());
            }
        }
        BitSet present = new BitSet();
        // newest first: sequence numbers must decrease, entry numbers too (journaling order)
        for (int i = 0; i < items.size(); i++) {
            long item = items.get(i);
            long seq = seqs.get(i);
            entriesChecked++;
            if (present.get((int) item)) {
                duplicates++;
                problems.add(context + ": entry " + item + " is journaled twice");
            }
            present.set((int) item);
            if (!mayBeThere.get((int) item)) {
                strangers++;
                problems.add(context + ": entry " + item + " was never submitted");
            }
            Long before = itemBySeq.putIfAbsent(seq, item);
            if (before != null && before != item) {
                reused++;
                problems.add(context + ": sequence " + seq + " named entry " + before + ", now " + item);
            }
            if (i > 0 && (seq >= seqs.get(i - 1) || item >= items.get(i - 1))) {
                problems.add(context + ": out of order: seq " + seq + " entry " + item + " before seq "
                        + seqs.get(i - 1) + " entry " + items.get(i - 1));
            }
        }
        BitSet missing = (BitSet) accepted.clone();
        missing.andNot(present);
        if (!missing.isEmpty()) {
            lost += missing.cardinality();
            problems.add(context + ": accepted but not journaled: " + missing);
        }
    }

    private String line(long seed) {
        double mean = recoveryMs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double max = recoveryMs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return String.format("audit journal: cycles %d (%d killed inside start), acknowledged items lost %d,"
                        + " duplicates %d, sequences reused %d, never submitted %d, quarantined %d,"
                        + " failed opens %d, loss reports on restart %d, child errors %d,"
                        + " recovery ms mean %.1f max %.1f, entries checked %d, seed %d",
                cycles, insideStart, lost, duplicates, reused, strangers, quarantined, failedOpens,
                falseLossReports, childErrors, mean, max, entriesChecked, seed);
    }

    private List<String> runAndKill(Path dir, boolean fastPath, long childSeed, long start,
                                    boolean duringStart, int delayMs, String context) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stdout = temp.resolve("child.out");
        Path stderr = temp.resolve("child.err");
        Process child = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), JournalCrashChild.class.getName(),
                dir.toString(), "run", Boolean.toString(fastPath), Long.toString(childSeed), Long.toString(start))
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .start();
        boolean diedAlone = false;
        try {
            if (!duringStart) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!lines(stdout).contains("ready") && child.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(2);
                }
            }
            Thread.sleep(delayMs);
            diedAlone = !child.isAlive();
        } finally {
            child.toHandle().destroyForcibly();
            child.waitFor();
        }
        if (diedAlone) {
            childErrors++;
            problems.add(context + ": the child died on its own, exit " + child.exitValue() + ": "
                    + Files.readString(stderr));
        }
        return lines(stdout);
    }

    /** The whole reports written so far; one cut off by the kill lacks its terminator. */
    private static List<String> lines(Path out) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : new String(Files.readAllBytes(out), StandardCharsets.UTF_8).split("\n", -1)) {
            if (line.startsWith(JournalCrashChild.PREFIX) && line.endsWith(" ;")) {
                lines.add(line.substring(JournalCrashChild.PREFIX.length(), line.length() - 2));
            }
        }
        return lines;
    }
}
