package io.qubiq.storeforward.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Kills a real child JVM ({@code SIGKILL} via {@link Process#destroyForcibly()}) while it adds and
 * removes entries, then reopens the store: every add the child reported as returned is there with
 * intact bytes, every reported remove is gone, and only the one operation in flight at the kill
 * may have gone either way. A process kill keeps the page cache, so this proves atomicity of the
 * temp-file-and-rename protocol and recovery; it does not simulate power loss.
 */
class QuarantineCrashTest {

    private static final int CYCLES = 10;

    @TempDir
    Path temp;

    @Test
    void reportedAddsSurviveAndReportedRemovesStayGoneAcrossKillNine() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Path dir = temp.resolve("quarantine");
        TreeSet<Long> known = new TreeSet<>();
        int killsDuringAnOperation = 0;

        for (int cycle = 0; cycle < CYCLES; cycle++) {
            String context = "seed " + seed + ", cycle " + cycle;
            int killAfter = 1 + random.nextInt(30);
            List<String> lines = runAndKill(dir, cycle * 1_000_000L + 1, random.nextLong(), killAfter,
                    random.nextInt(25), context);

            TreeSet<Long> expected = new TreeSet<>(known);
            String inFlight = null;
            for (String line : lines) {
                String[] parts = line.split(" ");
                long id = parts.length > 1 ? Long.parseLong(parts[1]) : -1;
                switch (parts[0]) {
                    case "BEGIN-ADD", "BEGIN-REMOVE" -> inFlight = line;
                    case "ADDED" -> {
                        expected.add(id);
                        inFlight = null;
                    }
                    case "REMOVED" -> {
                        expected.remove(id);
                        inFlight = null;
                    }
                    case "READY" -> assertThat(Long.parseLong(parts[1])).as(context).isEqualTo(known.size());
                    default -> fail("unexpected child line '" + line + "' (" + context + ")");
                }
            }
            if (inFlight != null) {
                killsDuringAnOperation++;
            }
            System.out.printf("%s: killed after %d reported lines, in flight: %s, expecting %d entries%n",
                    context, lines.size(), inFlight, expected.size());

            try (FileQuarantineStore store = FileQuarantineStore.open(dir, QuarantineCrashChild.MAX_BYTES)) {
                TreeSet<Long> actual = new TreeSet<>(QuarantineStoreContract.ids(
                        store.list(0, Integer.MAX_VALUE, Optional.empty())));
                TreeSet<Long> ifInFlightDone = new TreeSet<>(expected);
                if (inFlight != null) {
                    long id = Long.parseLong(inFlight.split(" ")[1]);
                    if (inFlight.startsWith("BEGIN-ADD")) {
                        ifInFlightDone.add(id);
                    } else {
                        ifInFlightDone.remove(id);
                    }
                }
                assertThat(actual.equals(expected) || actual.equals(ifInFlightDone))
                        .as("%s: after the kill the store holds %s; expected %s or, with the in-flight '%s', %s",
                                context, actual, expected, inFlight, ifInFlightDone)
                        .isTrue();
                for (long id : actual) {
                    QuarantinedItem got = store.get(id).orElseThrow();
                    byte[] item = QuarantineCrashChild.item(id);
                    assertThat(got.item()).as("%s: bytes of entry %d", context, id).isEqualTo(item);
                    assertThat(got.entry()).as("%s: entry %d", context, id)
                            .isEqualTo(QuarantineCrashChild.entry(id, item));
                }
                assertThat(store.setAside()).as("%s: a kill must not damage any entry", context).isZero();
                assertThat(tempFiles(dir)).as("%s: temp files left after open", context).isEmpty();
                known = actual;
            }
        }

        assertThat(killsDuringAnOperation)
                .as("seed %d: at least one kill should land between BEGIN and its completion", seed)
                .isPositive();
    }

    /**
     * Runs one child until it has reported {@code killAfter} completed operations, then kills it.
     * The child's stdout goes to a file, not a pipe: after a kill the file still holds every line
     * the child flushed, and there is no reader thread racing the pipe's teardown.
     */
    private static List<String> runAndKill(Path dir, long firstId, long childSeed, int killAfter, int killDelayMillis,
                                           String context) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path stdout = dir.resolveSibling("child-" + firstId + ".out");
        Path stderr = dir.resolveSibling("child-" + firstId + ".err");
        Process child = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), QuarantineCrashChild.class.getName(),
                dir.toString(), Long.toString(firstId), Long.toString(childSeed))
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try {
            while (completed(reportedLines(stdout)) < killAfter) {
                if (!child.isAlive()) {
                    fail(context + ": the child exited with " + child.exitValue() + " before the kill: "
                            + Files.readString(stderr));
                }
                if (System.nanoTime() > deadline) {
                    fail(context + ": the child reported only " + completed(reportedLines(stdout))
                            + " operations in 20 s");
                }
                Thread.sleep(2);
            }
            Thread.sleep(killDelayMillis);
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).as(context + ": child died").isTrue();
        }
        return reportedLines(stdout);
    }

    /** The child's complete report lines so far; a last line without its newline is not complete. */
    private static List<String> reportedLines(Path stdout) throws IOException {
        String text = Files.readString(stdout, StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.remove(lines.size() - 1); // "" after the last newline, or an incomplete line
        return lines.stream().filter(l -> l.startsWith(QuarantineCrashChild.PREFIX))
                .map(l -> l.substring(QuarantineCrashChild.PREFIX.length())).toList();
    }

    private static long completed(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("ADDED") || l.startsWith("REMOVED")).count();
    }

    private static List<Path> tempFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
        }
    }
}
