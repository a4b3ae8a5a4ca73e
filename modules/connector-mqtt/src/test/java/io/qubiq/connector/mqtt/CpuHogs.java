package io.qubiq.connector.mqtt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Busy-loop shell processes beside the test, so the gateway's threads compete for the CPUs as on a
 * loaded plant PC. {@link #close()} stops exactly the processes this instance started.
 */
final class CpuHogs implements AutoCloseable {

    private final List<Process> processes = new ArrayList<>();

    CpuHogs(int count) {
        try {
            for (int i = 0; i < count; i++) {
                processes.add(new ProcessBuilder("/bin/sh", "-c", "while :; do :; done").start());
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot start a CPU hog", e);
        }
    }

    int count() {
        return processes.size();
    }

    @Override
    public void close() {
        processes.forEach(Process::destroyForcibly);
        processes.clear();
    }
}
