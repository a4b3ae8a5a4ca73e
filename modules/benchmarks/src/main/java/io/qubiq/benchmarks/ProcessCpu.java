package io.qubiq.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of another process (a server the harness started), for CPU per item: user + system time
 * from {@code /proc/<pid>/stat}, in clock ticks ({@link ThreadCpu#CLOCK_TICKS} a second, so a tick is
 * the resolution). A process that exits takes its time with it.
 */
final class ProcessCpu {

    private static final long NANOS_PER_TICK = 1_000_000_000L / Math.max(1, ThreadCpu.CLOCK_TICKS);

    private ProcessCpu() {
    }

    /** Nanoseconds of CPU {@code pid} has used, or 0 where it is gone or there is no /proc. */
    static long nanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // after the name: state is field 3, utime and stime fields 14 and 15
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
