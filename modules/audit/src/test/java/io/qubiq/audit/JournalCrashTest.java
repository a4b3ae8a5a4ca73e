package io.qubiq.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit journal against a real crash: a child JVM ({@link JournalCrashChild}) journals numbered
 * entries through the audit channel into the local store; the parent kills it with {@code SIGKILL}
 * ({@link Process#destroyForcibly()}) at a random moment and starts the next on the same directory,
 * alternating the fast path (the producer's thread writes the store) and the buffered path. A last
 * child drains the buffer. Then, read from the store:
 * <ul>
 *   <li>every entry whose {@code submit} returned is there;
 *   <li>no entry is there twice (replays of a delivered but unacknowledged batch are skipped by id);
 *   <li>entries are in journaling order, sequence numbers increasing;
 *   <li>every entry there was submitted (accepted, or in the one batch in flight at the kill).
 * </ul>
 * A process kill keeps the page cache: this proves the write/ack order, idempotence and recovery,
 * not survival of power loss.
 */
class JournalCrashTest {

    private static final int CYCLES = 6;

    @TempDir
    Path temp;

    @Test
    void everyAcceptedEntrySurvivesKillNineOnceAndInOrder() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Path dir = temp.resolve("audit");
        Files.createDirectories(dir);
        BitSet accepted = new BitSet();
        BitSet mayBeThere = new BitSet();
        long start = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            String context = "seed " + seed + ", cycle " + cycle;
            Child child = Child.start(dir, "run", cycle % 2 == 0, random.nextLong(), start);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> child.lines().contains("ready"));
                long readyAt = System.nanoTime();
                long killAfter = 200 + random.nextInt(700);
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5)).until(() ->
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - readyAt) >= killAfter);
            } finally {
                child.kill();
            }
            long highest = start - 1;
            for (String line : child.lines()) {
                if (line.startsWith("accepted ")) {
                    String[] parts = line.split(" ");
                    long first = Long.parseLong(parts[1]);
                    long last = Long.parseLong(parts[2]);
                    assertThat(first).as(context).isEqualTo(highest + 1);
                    accepted.set((int) first, (int) last + 1);
                    highest = last;
                }
            }
            assertThat(highest).as("%s: the child journaled something", context).isGreaterThanOrEqualTo(start);
            mayBeThere.set((int) start, (int) highest + 1 + 5);
            start = highest + 1 + 5 + 100;
        }
        Child drain = Child.start(dir, "drain", true, 0, start);
        assertThat(drain.process.waitFor(60, TimeUnit.SECONDS)).as("the drain child finished").isTrue();
        assertThat(drain.lines()).contains("drained 0");

        List<Long> stored = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        try (LocalAuditStore store = JournalCrashChild.store(dir)) {
            JournalQuery query = JournalQuery.newest(1000);
            while (true) {
                JournalPage page = store.query(query);
                for (StoredEntry entry : page.entries()) {
                    stored.add(Long.parseLong(entry.entry().event().target().substring("item/".length())));
                    seqs.add(entry.seq());
                }
                if (page.next().isEmpty()) {
                    break;
                }
                query = query.withBefore(page.next().getAsLong());
            }
        }
        Collections.reverse(stored);
        Collections.reverse(seqs);

        String context = "seed " + seed;
        BitSet present = new BitSet();
        for (int i = 0; i < stored.size(); i++) {
            int n = stored.get(i).intValue();
            assertThat(present.get(n)).as("%s: entry %d is stored once", context, n).isFalse();
            present.set(n);
            assertThat(mayBeThere.get(n)).as("%s: entry %d was submitted", context, n).isTrue();
            if (i > 0) {
                assertThat(stored.get(i)).as("%s: journaling order", context).isGreaterThan(stored.get(i - 1));
                assertThat(seqs.get(i)).as("%s: sequence numbers increase", context).isGreaterThan(seqs.get(i - 1));
            }
        }
        BitSet missing = (BitSet) accepted.clone();
        missing.andNot(present);
        assertThat(missing.isEmpty()).as("%s: accepted but missing: %s", context, missing).isTrue();
        assertThat(accepted.cardinality()).as("enough entries to mean something").isGreaterThan(100);
    }

    private record Child(Process process, Path out) {

        static Child start(Path dir, String mode, boolean fastPath, long seed, long start) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path out = Files.createTempFile(dir.getParent(), "child-", ".out");
            Process process = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                    "-cp", System.getProperty("java.class.path"), JournalCrashChild.class.getName(),
                    dir.toString(), mode, Boolean.toString(fastPath), Long.toString(seed), Long.toString(start))
                    .redirectError(ProcessBuilder.Redirect.appendTo(dir.getParent().resolve("child-stderr.log").toFile()))
                    .redirectOutput(out.toFile())
                    .start();
            return new Child(process, out);
        }

        /** The whole reports written so far; one cut off by the kill lacks its terminator and is left out. */
        List<String> lines() throws IOException {
            List<String> lines = new ArrayList<>();
            for (String line : new String(Files.readAllBytes(out), StandardCharsets.UTF_8).split("\n", -1)) {
                if (line.startsWith(JournalCrashChild.PREFIX) && line.endsWith(" ;")) {
                    lines.add(line.substring(JournalCrashChild.PREFIX.length(), line.length() - 2));
                }
            }
            return lines;
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
