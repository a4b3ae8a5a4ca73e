package io.qubiq.historian.wal;

import java.util.Locale;

/**
 * Why QuestDB suspended a table's WAL apply, read from {@code wal_tables()}'s {@code errorTag}
 * (QuestDB's own classification: {@code DISK FULL}, {@code TOO MANY OPEN FILES},
 * {@code OUT OF MMAP AREAS}, {@code OUT OF MEMORY}, or empty) and, when the tag is empty, from
 * well-known phrases in {@code errorMessage}.
 *
 * <p>Recoverable causes are resource exhaustion that passes once the resource is freed (space
 * cleared, files closed, memory released), so retrying the same transaction later can succeed.
 * Anything else (an empty tag with an unknown message: a corrupt or unreadable segment, a data or
 * schema error, or a manual {@code SUSPEND WAL}) is not: retrying would fail again the same way.
 */
public enum SuspensionCause {
    DISK_FULL(true),
    TOO_MANY_OPEN_FILES(true),
    OUT_OF_MEMORY(true),
    OTHER(false);

    private final boolean recoverable;

    SuspensionCause(boolean recoverable) {
        this.recoverable = recoverable;
    }

    public boolean recoverable() {
        return recoverable;
    }

    public static SuspensionCause classify(String errorTag, String errorMessage) {
        String tag = errorTag == null ? "" : errorTag.trim().toUpperCase(Locale.ROOT);
        switch (tag) {
            case "DISK FULL":
                return DISK_FULL;
            case "TOO MANY OPEN FILES":
                return TOO_MANY_OPEN_FILES;
            case "OUT OF MMAP AREAS":
            case "OUT OF MEMORY":
                return OUT_OF_MEMORY;
            default:
                break;
        }
        if (!tag.isEmpty()) {
            return OTHER;
        }
        String message = errorMessage == null ? "" : errorMessage.toLowerCase(Locale.ROOT);
        if (message.contains("no space left") || message.contains("disk full")) {
            return DISK_FULL;
        }
        if (message.contains("too many open files")) {
            return TOO_MANY_OPEN_FILES;
        }
        if (message.contains("out of memory") || message.contains("cannot allocate memory")
                || message.contains("could not mmap")) {
            return OUT_OF_MEMORY;
        }
        return OTHER;
    }
}
