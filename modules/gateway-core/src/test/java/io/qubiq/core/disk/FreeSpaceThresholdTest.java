package io.qubiq.core.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FreeSpaceThresholdTest {

    @Test
    void aPercentageIsAShareOfTheFileSystem() {
        FreeSpaceThreshold tenPercent = FreeSpaceThreshold.parse("10%");
        assertThat(tenPercent.percent()).contains(10.0);
        assertThat(tenPercent.bytesOf(1_000_000)).isEqualTo(100_000);
        assertThat(tenPercent.reached(new DiskSpace(99_999, 1_000_000))).isTrue();
        assertThat(tenPercent.reached(new DiskSpace(100_000, 1_000_000))).as("exactly 10 % free is not below it")
                .isFalse();
        assertThat(FreeSpaceThreshold.parse(" 2.5 %").bytesOf(1000)).isEqualTo(25);
    }

    @Test
    void aSizeIsTheSameWhateverTheFileSystemsSize() {
        assertThat(FreeSpaceThreshold.parse("2GiB").bytes()).contains(2L * 1024 * 1024 * 1024);
        assertThat(FreeSpaceThreshold.parse("500MB").bytes()).contains(500_000_000L);
        assertThat(FreeSpaceThreshold.parse("1.5 kib").bytes()).contains(1536L);
        assertThat(FreeSpaceThreshold.parse("4096").bytes()).contains(4096L);
        FreeSpaceThreshold oneGig = FreeSpaceThreshold.parse("1GB");
        assertThat(oneGig.reached(new DiskSpace(999_999_999, 10_000_000_000_000L))).isTrue();
        assertThat(oneGig.reached(new DiskSpace(1_000_000_000, 2_000_000_000L))).isFalse();
    }

    @Test
    void anythingElseSaysWhatWasExpected() {
        assertThatThrownBy(() -> FreeSpaceThreshold.parse("ten percent"))
                .hasMessageContaining("a percentage such as \"10%\" or a size such as \"2GiB\"")
                .hasMessageContaining("got \"ten percent\"");
        assertThatThrownBy(() -> FreeSpaceThreshold.parse("150%")).hasMessageContaining("between 0 and 100");
        assertThatThrownBy(() -> FreeSpaceThreshold.parse("5 PB")).hasMessageContaining("expected a percentage");
        assertThatThrownBy(() -> FreeSpaceThreshold.parse("-1%")).hasMessageContaining("expected a percentage");
    }
}
