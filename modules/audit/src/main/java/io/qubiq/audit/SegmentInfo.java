package io.qubiq.audit;

import java.nio.file.Path;

/**
 * What the store knows of one segment file: its first sequence number (its name), the last it
 * holds ({@code firstSeq - 1} while empty) and its valid length in bytes.
 */
record SegmentInfo(Path file, long firstSeq, long lastSeq, long bytes) {

    SegmentInfo appended(long newLastSeq, long newBytes) {
        return new SegmentInfo(file, firstSeq, newLastSeq, newBytes);
    }

    boolean empty() {
        return lastSeq < firstSeq;
    }
}
