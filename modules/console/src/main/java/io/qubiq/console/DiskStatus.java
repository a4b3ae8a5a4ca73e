package io.qubiq.console;

/**
 * Free space of one watched directory's file system, as /health and the console header show it.
 *
 * @param path the watched directory
 * @param state {@code OK}, {@code WARNING} or {@code CRITICAL} by the {@code disk:} thresholds
 * @param freeBytes bytes free at the last sample
 * @param totalBytes the file system's size
 * @param usedBytes what the directory itself holds, where it is measured (the embedded QuestDB's)
 */
public record DiskStatus(String path, String state, long freeBytes, long totalBytes,
                         java.util.Optional<Long> usedBytes) {

    public DiskStatus(String path, String state, long freeBytes, long totalBytes) {
        this(path, state, freeBytes, totalBytes, java.util.Optional.empty());
    }

    /** Free bytes as a percentage of the total. */
    public double freePercent() {
        return totalBytes == 0 ? 100.0 : 100.0 * freeBytes / totalBytes;
    }
}
