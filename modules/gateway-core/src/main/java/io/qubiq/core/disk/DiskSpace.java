package io.qubiq.core.disk;

/**
 * One sample of a file system's space.
 *
 * @param freeBytes bytes this process may still write ({@code FileStore.getUsableSpace})
 * @param totalBytes the file system's size ({@code FileStore.getTotalSpace})
 */
public record DiskSpace(long freeBytes, long totalBytes) {

    public DiskSpace {
        if (freeBytes < 0 || totalBytes < 0) {
            throw new IllegalArgumentException("negative disk space: " + freeBytes + " of " + totalBytes);
        }
    }

    /** Free bytes as a percentage of the total; 100 for a file system that reports no size. */
    public double freePercent() {
        return totalBytes == 0 ? 100.0 : 100.0 * freeBytes / totalBytes;
    }
}
