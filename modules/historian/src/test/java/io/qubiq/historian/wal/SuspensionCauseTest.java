package io.qubiq.historian.wal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SuspensionCauseTest {

    @Test
    void questDbErrorTagsOfExhaustedResourcesAreRecoverable() {
        assertThat(SuspensionCause.classify("DISK FULL", "")).isEqualTo(SuspensionCause.DISK_FULL);
        assertThat(SuspensionCause.classify("TOO MANY OPEN FILES", "")).isEqualTo(SuspensionCause.TOO_MANY_OPEN_FILES);
        assertThat(SuspensionCause.classify("OUT OF MMAP AREAS", "")).isEqualTo(SuspensionCause.OUT_OF_MEMORY);
        assertThat(SuspensionCause.classify("OUT OF MEMORY", "")).isEqualTo(SuspensionCause.OUT_OF_MEMORY);
        assertThat(SuspensionCause.classify("", "could not open, errno=28 No space left on device").recoverable())
                .isTrue();
    }

    @Test
    void anythingElseIsNotRecoverable() {
        assertThat(SuspensionCause.classify("", "")).isEqualTo(SuspensionCause.OTHER);
        assertThat(SuspensionCause.classify("", "invalid WAL segment: checksum mismatch")).isEqualTo(SuspensionCause.OTHER);
        assertThat(SuspensionCause.classify("SOMETHING NEW", "disk full")).isEqualTo(SuspensionCause.OTHER);
        assertThat(SuspensionCause.OTHER.recoverable()).isFalse();
    }
}
