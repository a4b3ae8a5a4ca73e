package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 that lands inside the quarantine store's writes (issue 18 F), as {@code
 * BufferTortureTest} does for the buffer. A child JVM ({@link QuarantineCrashChild}) adds and
 * removes entries until it is killed with SIGKILL after a seeded random delay: one cycle in eight
 * during its start (inside the store's open and recovery), one in sixteen up to {@code
 * quarantine.torture.longestDelayMs} after READY, the rest within 300 ms of READY. It reports
 * {@code BEGIN-ADD}/{@code ADDED} and {@code BEGIN-REMOVE}/{@code REMOVED} around each call on a
 * file (flushed per line, so a kill keeps every line written before it). After every kill the
 * parent opens the store in-process and checks:
 * <ul>
 *   <li>the open never throws;
 *   <li>every add reported as returned is there unless its remove was reported (acknowledged items
 *       lost counts the ones that are not);
 *   <li>no reported remove comes back, no entry appears that no child added;
 *   <li>no entry is partly there: each entry's metadata and bytes are exactly what was added,
 *       nothing set aside as damaged, no temporary file left after the open;
 *   <li>only the one call in flight at the kill may have gone either way.
 * </ul>
 * The set found is what the next child starts from. CI runs {@value #CI_CYCLES} cycles; {@code
 * scripts/torture} runs more through {@code quarantine.torture.cycles}, {@code
 * quarantine.torture.minutes}, {@code quarantine.torture.seed} and {@code
 * quarantine.torture.datasheet} (a file that gets the datasheet line). A process kill keeps the
 * page cache: power loss is {@code QuarantinePowerLossTest}'s subject.
 */
class QuarantineTortureTest {

    private static final int CI_CYCLES = 20;

    @TempDir
    Path temp;

    private int cycles;
    private int insideOperation;
    private int insideOpen;
    private int lost;
    private int cameBack;
    private int partly;
    private int failedOpens;
    private int childErrors;
    private long entriesChecked;
    private final List<Double> recoveryMs = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    @Test
    void reportedAddsSurviveWholeAndReportedRemovesStayGoneWhenKillNineLandsInsideWrites()
            throws Exception {
        long seed = Long.getLong("quarantine.torture.seed", System.nanoTime());
        int maxCycles = Integer.getInteger("quarantine.torture.cycles", CI_CYCLES);
        double minutes = Double.parseDouble(System.getProperty("quarantine.torture.minutes", "0"));
        long budgetNanos = minutes > 0 ? (long) (minutes * 60e9) : Long.MAX_VALUE;
        int longestDelayMs = Integer.getInteger("quarantine.torture.longestDelayMs", 1_000);
        Random random = new Random(seed);
        Path dir = temp.resolve("quarantine");
        TreeSet<Long> known = new TreeSet<>();
        long started = System.nanoTime();

        for (int cycle = 0; cycle < maxCycles && System.nanoTime() - started < budgetNanos; cycle++) {
            int kind = random.nextInt(16);
            boolean duringStart = kind < 2;
            int delayMs = duringStart ? random.nextInt(1_500)
                    : kind == 2 ? random.nextInt(longestDelayMs) : random.nextInt(300);
            String context = "seed " + seed + ", cycle " + cycle + " (killed " + delayMs + " ms after "
                    + (duringStart ? "start" : "READY") + ")";
            List<String> lines = runAndKill(dir, cycle * 1_000_000L + 1, random.nextLong(), duringStart,
                    delayMs, context);
            cycles++;

            TreeSet<Long> expected = new TreeSet<>(known);
            TreeSet<Long> removed = new TreeSet<>();
            String inFlight = null;
            boolean ready = false;
            for (String line : lines) {
                String[] parts = line.split(" ");
                long value = parts.length > 1 ? Long.parseLong(parts[1]) : -1;
                switch (parts[0]) {
                    case "READY" -> {
                        ready = true;
                        if (value != known.size()) {
                            problems.add(context + ": the child opened " + value + " entries, the parent"
                                    + " left " + known.size());
                        }
                    }
                    case "BEGIN-ADD", "BEGIN-REMOVE" -> inFlight = line;
                    case "ADDED" -> {
                        expected.add(value);
                        inFlight = null;
                    }
                    case "REMOVED" -> {
                        expected.remove(value);
                        removed.add(value);
                        inFlight = null;
                    }
                    default -> {
                        childErrors++;
                        problems.add(context + ": child reported '" + line + "'");
                    }
                }
            }
            if (!ready) {
                insideOpen++;
            } else if (inFlight != null) {
                insideOperation++;
            }
            long inFlightId = inFlight == null ? -1 : Long.parseLong(inFlight.split(" ")[1]);
            context += inFlight == null ? "" : ", inside '" + inFlight + "'";

            long openStarted = System.nanoTime();
            FileQuarantineStore store;
            try {
                store = FileQuarantineStore.open(dir, QuarantineCrashChild.MAX_BYTES);
            } catch (Exception | Error e) {
                failedOpens++;
                problems.add(context + ": open failed: " + e);
                Files.move(dir, temp.resolve("quarantine-failed-" + cycle));
                known = new TreeSet<>();
                continue;
            }
            recoveryMs.add((System.nanoTime() - openStarted) / 1e6);
            try (store) {
                TreeSet<Long> actual = new TreeSet<>(QuarantineStoreContract.ids(
                        store.list(0, Integer.MAX_VALUE, Optional.empty())));
                for (long id : expected) {
                    if (!actual.contains(id) && id != inFlightId) {
                        lost++;
                        problems.add(context + ": entry " + id + " was reported added and is gone");
                    }
                }
                for (long id : actual) {
                    if (id == inFlightId) {
                        continue;
                    }
                    if (removed.contains(id)) {
                        cameBack++;
                        problems.add(context + ": entry " + id + " was reported removed and is back");
                    } else if (!expected.contains(id)) {
                        problems.add(context + ": entry " + id + " was never added");
                    }
                }
                for (long id : actual) {
                    entriesChecked++;
                    Optional<QuarantinedItem> got = store.get(id);
                    byte[] item = QuarantineCrashChild.item(id);
                    if (got.isEmpty() || !java.util.Arrays.equals(got.get().item(), item)
                            || !got.get().entry().equals(QuarantineCrashChild.entry(id, item))) {
                        partly++;
                        problems.add(context + ": entry " + id + " is listed but not whole: " + got);
                    }
                }
                if (store.setAside() > 0) {
                    partly += store.setAside();
                    problems.add(context + ": " + store.setAside() + " entries set aside as damaged");
                }
                List<Path> temps = tempFiles(dir);
                if (!temps.isEmpty()) {
                    problems.add(context + ": temporary files left after the open: " + temps);
                }
                known = actual;
            }
        }

        String line = line(seed);
        System.out.println(line);
        problems.stream().limit(50).forEach(System.out::println);
        String datasheet = System.getProperty("quarantine.torture.datasheet");
        if (datasheet != null) {
            Files.writeString(Path.of(datasheet), line + System.lineSeparator(), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        assertThat(problems).as(line).isEmpty();
        assertThat(cycles).as(line).isPositive();
    }

    private String line(long seed) {
        double mean = recoveryMs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double max = recoveryMs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return String.format("quarantine: cycles %d, kills inside an add or remove %d (and %d inside open),"
                        + " acknowledged items lost %d, removed came back %d, partly there %d,"
                        + " sequences reused n/a (ids are the caller's), failed opens %d, child errors %d,"
                        + " recovery ms mean %.1f max %.1f, entries checked %d, seed %d",
                cycles, insideOperation, insideOpen, lost, cameBack, partly, failedOpens, childErrors, mean,
                max, entriesChecked, seed);
    }

    /**
     * Starts a child and kills it {@code delayMs} after its start or after its READY line. Its
     * stdout goes to a file: after the kill the file holds every line the child flushed.
     */
    private List<String> runAndKill(Path dir, long firstId, long childSeed, boolean duringStart,
                                    int delayMs, String context) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stdout = temp.resolve("child.out");
        Path stderr = temp.resolve("child.err");
        Process child = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), QuarantineCrashChild.class.getName(),
                dir.toString(), Long.toString(firstId), Long.toString(childSeed))
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .start();
        boolean diedAlone = false;
        try {
            if (!duringStart) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (reportedLines(stdout).isEmpty() && child.isAlive() && System.nanoTime() < deadline) {
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
        return reportedLines(stdout);
    }

    /** The child's complete report lines; a last line without its newline is not complete. */
    private static List<String> reportedLines(Path stdout) throws IOException {
        String text = Files.readString(stdout, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.remove(lines.size() - 1);
        return lines.stream().filter(l -> l.startsWith(QuarantineCrashChild.PREFIX))
                .map(l -> l.substring(QuarantineCrashChild.PREFIX.length())).toList();
    }

    private static List<Path> tempFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }
}
