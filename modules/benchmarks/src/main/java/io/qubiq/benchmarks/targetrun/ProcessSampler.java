package io.qubiq.benchmarks.targetrun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Samples the gateway process every few seconds from {@code /proc/<pid>/stat} (utime + stime, in
 * clock ticks) and {@code /proc/<pid>/status} (VmRSS). The PID is asked for at every sample, so a
 * restarted gateway is followed; the CPU of every incarnation is summed (the last sample of each is
 * its total, so up to one interval of a killed incarnation is missed). Threading: samples on its own
 * thread; the getters are synchronized.
 */
final class ProcessSampler implements AutoCloseable {

    private final LongSupplier pid;
    private final long ticksPerSecond;
    private final Map<Long, Long> cpuTicksByPid = new LinkedHashMap<>();
    private long maxRssKb;
    private long samples;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "target-sampler");
        thread.setDaemon(true);
        return thread;
    });

    ProcessSampler(LongSupplier pid, long ticksPerSecond) {
        this.pid = pid;
        this.ticksPerSecond = ticksPerSecond;
    }

    void start(long intervalMs) {
        timer.scheduleAtFixedRate(this::sample, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    synchronized void sample() {
        long current = pid.getAsLong();
        if (current <= 0) {
            return;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(current), "stat"));
            // fields after the command name in parentheses: state is field 3, utime 14, stime 15
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            cpuTicksByPid.put(current, ticks);
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(current), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    maxRssKb = Math.max(maxRssKb, kb);
                }
            }
            samples++;
        } catch (IOException | RuntimeException e) {
            // the process ended between two samples
        }
    }

    /** The VmRSS, RssAnon and RssFile lines of {@code /proc/<pid>/status}: resident size with mapped files apart. */
    static String residentSize(long pid) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", String.valueOf(pid), "status"))) {
            return String.join(", ", lines.filter(l -> l.startsWith("VmRSS") || l.startsWith("RssAnon")
                    || l.startsWith("RssFile")).map(l -> l.replaceAll("\\s+", " ")).toList());
        } catch (IOException e) {
            return "resident size unknown (" + e.getMessage() + ")";
        }
    }

    /** CPU seconds of every incarnation seen, as of the last samples. */
    synchronized double cpuSeconds() {
        return cpuTicksByPid.values().stream().mapToLong(Long::longValue).sum() / (double) ticksPerSecond;
    }

    synchronized long maxRssKb() {
        return maxRssKb;
    }

    synchronized long samples() {
        return samples;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** The kernel's clock ticks per second ({@code getconf CLK_TCK}), 100 when it cannot be asked. */
    static long clockTicks() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes()).trim();
            getconf.waitFor(5, TimeUnit.SECONDS);
            return Long.parseLong(out);
        } catch (IOException | RuntimeException | InterruptedException e) {
            return 100;
        }
    }
}
