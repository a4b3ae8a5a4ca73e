package io.qubiq.core.event;

import java.time.Instant;

/**
 * A watched file system fell below its warning or critical free-space threshold (raised, once per
 * entry into either) or came back above the warning threshold (cleared). Critical means the stores
 * there stop growing: store-and-forward channels behave as at their {@code max_bytes}.
 *
 * @param path the watched directory
 * @param critical true at or below the critical threshold, false at the warning one (or when cleared)
 * @param freeBytes bytes free when it changed
 * @param totalBytes the file system's size
 */
public record DiskSpaceAlarm(String path, boolean active, boolean critical, Instant at, long freeBytes,
                             long totalBytes) implements AlarmEvent {

    @Override
    public String key() {
        return "disk-space/" + path;
    }

    @Override
    public String source() {
        return "disk:" + path;
    }

    @Override
    public AlarmSeverity severity() {
        return critical ? AlarmSeverity.CRITICAL : AlarmSeverity.WARNING;
    }

    @Override
    public String message() {
        double percent = totalBytes == 0 ? 100.0 : 100.0 * freeBytes / totalBytes;
        String figures = String.format("%d bytes (%.1f %%) free of %d", freeBytes, percent, totalBytes);
        if (!active) {
            return "Disk space at " + path + " is back above the warning threshold: " + figures;
        }
        if (critical) {
            return "Disk almost full at " + path + ": " + figures + "; store-and-forward buffers there stop growing"
                    + " (drop oldest or refuse, per their overflow policy) until space is freed";
        }
        return "Disk space low at " + path + ": " + figures;
    }
}
