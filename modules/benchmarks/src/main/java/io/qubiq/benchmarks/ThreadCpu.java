package io.qubiq.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of this JVM's threads for the harnesses' reports: Java threads by name (numbers folded,
 * {@code forwarder-N}) from the thread MXBean, and, on Linux, the JVM's own native threads that
 * matter when a path is measured per row: the JIT compilers and the garbage collector, read from
 * {@code /proc/self/task/<tid>/stat} (user + system ticks, so a tick is the resolution there).
 */
final class ThreadCpu {

    /** Keys of the native groups; no Java thread name starts with a space. */
    static final String JIT = " JIT compilers";
    static final String GC = " GC threads";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Clock ticks per second of /proc's CPU times ({@code getconf CLK_TCK}, 100 if unknown). */
    static final long CLOCK_TICKS = clockTicks();
    private static final long NANOS_PER_TICK = 1_000_000_000L / Math.max(1, CLOCK_TICKS);

    private ThreadCpu() {
    }

    /** Nanoseconds of CPU by folded Java thread name, plus {@link #JIT} and {@link #GC}. */
    static Map<String, Long> snapshot() {
        Map<String, Long> byName = new TreeMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            ThreadInfo info = THREADS.getThreadInfo(id);
            long cpu = THREADS.getThreadCpuTime(id);
            if (info != null && cpu > 0) {
                byName.merge(info.getThreadName().replaceAll("\\d+", "N"), cpu, Long::sum);
            }
        }
        nativeThreads(byName);
        return byName;
    }

    /**
     * The four Java threads that used most CPU since {@code before}, the other Java threads, the JIT
     * compilers and the collector, and what none of these accounts for of the process's {@code
     * processCpu} seconds (the VM thread, other native threads, threads that ended).
     */
    static String since(Map<String, Long> before, double processCpu) {
        return describe(addSince(new TreeMap<>(), before), processCpu);
    }

    /**
     * Adds what each thread used since {@code before} to {@code tally} (nanoseconds by name), so that
     * CPU over several timed windows can be described as one; returns {@code tally}.
     */
    static Map<String, Long> addSince(Map<String, Long> tally, Map<String, Long> before) {
        for (Map.Entry<String, Long> e : snapshot().entrySet()) {
            long used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (used > 0) {
                tally.merge(e.getKey(), used, Long::sum);
            }
        }
        return tally;
    }

    /** {@link #since}'s description of CPU already tallied by {@link #addSince}. */
    static String describe(Map<String, Long> used, double processCpu) {
        List<Map.Entry<String, Double>> java = new ArrayList<>();
        double javaTotal = 0;
        for (Map.Entry<String, Long> e : used.entrySet()) {
            if (!e.getKey().startsWith(" ")) {
                double seconds = e.getValue() / 1e9;
                java.add(Map.entry(e.getKey(), seconds));
                javaTotal += seconds;
            }
        }
        double jit = used.getOrDefault(JIT, 0L) / 1e9;
        double gc = used.getOrDefault(GC, 0L) / 1e9;
        java.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        StringBuilder out = new StringBuilder();
        double shown = 0;
        for (int i = 0; i < Math.min(4, java.size()); i++) {
            out.append(String.format("%s %.2f s, ", java.get(i).getKey(), java.get(i).getValue()));
            shown += java.get(i).getValue();
        }
        out.append(String.format("other threads %.2f s, JIT %.2f s, GC %.2f s, other non-Java %.2f s",
                javaTotal - shown, jit, gc, Math.max(0, processCpu - javaTotal - jit - gc)));
        return out.toString();
    }

    /** Adds the compiler and collector threads' CPU from /proc (nothing where there is no /proc). */
    private static void nativeThreads(Map<String, Long> byName) {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return;
        }
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended while listed
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String comm = stat.substring(open + 1, close);
                String group = comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler") ? JIT
                        : comm.startsWith("GC Thread") || comm.startsWith("G1 ") ? GC : null;
                if (group != null) {
                    // after the name: state is field 3, utime and stime fields 14 and 15
                    String[] fields = stat.substring(close + 2).split(" ");
                    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    byName.merge(group, ticks * NANOS_PER_TICK, Long::sum);
                }
            }
        } catch (IOException e) {
            // no breakdown: the report then shows these threads under "other non-Java"
        }
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? Long.parseLong(out) : 100;
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
